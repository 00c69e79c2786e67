import { ComingSoon } from '../../../components/coming-soon';

export function DashboardPage() {
  return <ComingSoon title="Faculty Dashboard" subtitle="Select a class to manage attendance" />;
}

export default DashboardPage;
