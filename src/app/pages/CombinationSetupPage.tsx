import { Placeholder } from '../components/Placeholder';

export default function CombinationSetupPage() {
  return <Placeholder title="Combination Setup" />;
}
