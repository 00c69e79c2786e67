import { ComingSoon } from '../../../components/coming-soon';

export function ContactPage() {
  return <ComingSoon title="Contact Us" />;
}

export default ContactPage;
