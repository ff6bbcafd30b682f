import { Placeholder } from '../../src/app/components/Placeholder';

export default function MiaPage() {
  return <Placeholder title="Press release generator" />;
}
