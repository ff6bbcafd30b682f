import { CombinationSetupShell } from './catalogue/CombinationSetupShell';

/** /solutions/combinations/basic-workflow/{id}: the setup screen of a basic variant. */
export default function BasicWorkflowPage() {
  return <CombinationSetupShell variant="basic" />;
}
