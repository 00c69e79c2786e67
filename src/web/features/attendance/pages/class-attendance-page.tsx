import { ComingSoon } from '../../../components/coming-soon';

export function ClassAttendancePage() {
  return <ComingSoon title="Class attendance" />;
}

export default ClassAttendancePage;
