import { CombinationSetupShell } from './catalogue/CombinationSetupShell';

/** /solutions/combinations/workflow/{id}: the combination setup screen. */
export default function CombinationSetupPage() {
  return <CombinationSetupShell variant="workflow" />;
}
