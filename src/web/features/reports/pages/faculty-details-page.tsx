import { ComingSoon } from '../../../components/coming-soon';

export function FacultyDetailsPage() {
  return <ComingSoon title="Faculty Dashboard" />;
}

export default FacultyDetailsPage;
