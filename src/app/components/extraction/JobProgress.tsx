import { Caption1, ProgressBar, makeStyles } from '@fluentui/react-components';

const useStyles = makeStyles({ root: { display: 'grid', gap: '4px', maxWidth: '420px' } });

/** A running job's progress (0..100) and what it is doing, announced politely to screen readers. */
export function JobProgress({ progress, message, label }: { progress: number; message: string; label: string }) {
  const s = useStyles();
  return (
    <div className={s.root} role="status">
      <ProgressBar value={Math.max(0, Math.min(100, progress)) / 100} max={1} thickness="large" aria-label={label} />
      <Caption1>
        {message}… {Math.round(progress)}%
      </Caption1>
    </div>
  );
}
