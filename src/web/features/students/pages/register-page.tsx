import { ComingSoon } from '../../../components/coming-soon';

export function RegisterPage() {
  return <ComingSoon title="Student Registration" />;
}

export default RegisterPage;
