import { Placeholder } from '../../src/app/components/Placeholder';

export default function HalPage() {
  return <Placeholder title="AI pitch generator" />;
}
