import { Switch } from '@fluentui/react-components';
import type { SetupFlow } from './use-setup-flow';
import { TEXT } from './setup-rules';

/**
 * The header's activate/deactivate control: on while the recipe runs; toggling starts or stops
 * it. Disabled while its state is unknown or a change is on its way.
 */
export function ActivateSwitch({ flow }: { flow: Pick<SetupFlow, 'running' | 'busy' | 'setRun'> }) {
  const unknown = flow.running === undefined;
  return (
    <Switch
      checked={!!flow.running}
      disabled={unknown || flow.busy}
      label={unknown || flow.busy ? TEXT.loading : flow.running ? 'Active' : 'Inactive'}
      labelPosition="before"
      onChange={(_, d) => void flow.setRun(d.checked)}
    />
  );
}
