import { ComingSoon } from '../../../components/coming-soon';

export function WelcomePage() {
  return <ComingSoon title="Welcome" />;
}

export default WelcomePage;
