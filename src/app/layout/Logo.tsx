import { tokens } from '@fluentui/react-components';

/** The product's logo mark and word mark. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, color: tokens.colorNeutralForeground1 }}>
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={tokens.colorBrandBackground} />
        <path d="M8 21l5-10 4 7 3-4 4 7" stroke="#fff" strokeWidth="2.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <strong style={{ fontSize: size * 0.6 }}>Flowmatic</strong>
    </span>
  );
}
