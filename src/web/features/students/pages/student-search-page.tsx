import { ComingSoon } from '../../../components/coming-soon';

export function StudentSearchPage() {
  return <ComingSoon title="Student attendance" />;
}

export default StudentSearchPage;
