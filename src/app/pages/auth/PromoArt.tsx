/**
 * The promo picture of the split auth layout, drawn inline (no external asset): a small
 * automation flow (trigger -> AI step -> action) floating on the brand gradient.
 */
export function PromoArt() {
  const card = (x: number, y: number, w: number, title: string, sub: string, color: string, glyph: 'doc' | 'ai' | 'sheet') => (
    <g transform={`translate(${x} ${y})`}>
      <rect width={w} height="76" rx="14" fill="#ffffff" opacity="0.97" filter="url(#fm-shadow)" />
      <rect x="16" y="18" width="40" height="40" rx="10" fill={color} />
      {glyph === 'doc' && (
        <path
          d="M29 28h10l6 6v16a2 2 0 0 1-2 2H29a2 2 0 0 1-2-2V30a2 2 0 0 1 2-2zm10 0v6h6M31 42h10M31 46h7"
          stroke="#fff"
          strokeWidth="2"
          fill="none"
          strokeLinejoin="round"
        />
      )}
      {glyph === 'ai' && (
        <path d="M36 27l2.6 6.4L45 36l-6.4 2.6L36 45l-2.6-6.4L27 36l6.4-2.6zM44.5 44l1.2 2.8 2.8 1.2-2.8 1.2-1.2 2.8-1.2-2.8-2.8-1.2 2.8-1.2z" fill="#fff" />
      )}
      {glyph === 'sheet' && <path d="M28 29h16v18H28zM28 35h16M28 41h16M34 29v18" stroke="#fff" strokeWidth="2" fill="none" />}
      <text x="70" y="34" fontSize="14" fontWeight="600" fill="#1b1b3a" fontFamily="Segoe UI, system-ui, sans-serif">
        {title}
      </text>
      <text x="70" y="54" fontSize="12" fill="#5f6275" fontFamily="Segoe UI, system-ui, sans-serif">
        {sub}
      </text>
    </g>
  );
  return (
    <svg viewBox="0 0 480 420" width="100%" role="img" aria-label="An automation: a new invoice is read by AI and added to a spreadsheet">
      <defs>
        <filter id="fm-shadow" x="-20%" y="-30%" width="140%" height="170%">
          <feDropShadow dx="0" dy="8" stdDeviation="10" floodColor="#0b1a4a" floodOpacity="0.25" />
        </filter>
        <linearGradient id="fm-line" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#ffffff" stopOpacity="0.9" />
          <stop offset="1" stopColor="#ffffff" stopOpacity="0.4" />
        </linearGradient>
      </defs>
      <path d="M120 118v46M240 240v46" stroke="url(#fm-line)" strokeWidth="3" strokeDasharray="6 7" strokeLinecap="round" />
      {card(40, 42, 290, 'New invoice received', 'Trigger · Google Drive', '#0f6cbd', 'doc')}
      {card(160, 164, 290, 'Data extracted by AI', 'Vendor, totals, line items', '#8a3ffc', 'ai')}
      {card(40, 286, 290, 'Row added to the ledger', 'Action · Google Sheets', '#107c41', 'sheet')}
      <g transform="translate(352 300)">
        <rect width="104" height="48" rx="24" fill="#ffffff" opacity="0.16" />
        <circle cx="24" cy="24" r="9" fill="#54e38e" />
        <path d="M20 24l3 3 5-6" stroke="#0b3d22" strokeWidth="2" fill="none" strokeLinecap="round" />
        <text x="42" y="29" fontSize="13" fontWeight="600" fill="#ffffff" fontFamily="Segoe UI, system-ui, sans-serif">
          Done
        </text>
      </g>
    </svg>
  );
}
