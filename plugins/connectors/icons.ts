/**
 * Connector icons as small inline SVGs (data URIs): they need no asset pipeline, work the same
 * in the bundle and under Jest, and are drawn here (not the providers' trademarked logos).
 */
function svg(body: string): string {
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${body}</svg>`)}`;
}

export const googleDriveIcon = svg(
  '<path d="M11 4h10l9 15h-10z" fill="#FFC107"/><path d="M11 4 2 19l5 9 9-15z" fill="#1E88E5"/><path d="M7 28h18l5-9H12z" fill="#4CAF50"/>',
);

export const googleSheetsIcon = svg(
  '<path d="M8 2h12l6 6v20a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2z" fill="#0F9D58"/><path d="M20 2v6h6z" fill="#87CEAC"/><path d="M10 14h12v10H10z" fill="#fff"/><path d="M10 17h12M10 20.5h12M15 14v10" stroke="#0F9D58" stroke-width="1.4"/>',
);

export const xeroIcon = svg(
  '<circle cx="16" cy="16" r="14" fill="#13B5EA"/><path d="M10.5 10.5l11 11M21.5 10.5l-11 11" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>',
);

export const manualUploadIcon = svg(
  '<rect x="2" y="2" width="28" height="28" rx="6" fill="#5B5FC7"/><path d="M16 22V10M11 15l5-5 5 5M10 24h12" stroke="#fff" stroke-width="2.4" fill="none" stroke-linecap="round" stroke-linejoin="round"/>',
);

export const manualEmailIcon = svg(
  '<rect x="2" y="2" width="28" height="28" rx="6" fill="#D83B01"/><rect x="8" y="10" width="16" height="12" rx="1.5" fill="none" stroke="#fff" stroke-width="2"/><path d="M8.5 11l7.5 6 7.5-6" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/>',
);

export const flowmaticAiIcon = svg(
  '<rect x="2" y="2" width="28" height="28" rx="6" fill="#7B3FE4"/><path d="M16 7l2.2 6.8L25 16l-6.8 2.2L16 25l-2.2-6.8L7 16l6.8-2.2z" fill="#fff"/>',
);
