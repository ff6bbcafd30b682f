import { Placeholder } from '../components/Placeholder';

export default function MonitoringPage() {
  return <Placeholder title="Monitoring" />;
}
