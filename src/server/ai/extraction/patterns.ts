import { findAmounts } from './amount';
import { findDates, type DateOrder } from './date';

/** Kinds of values recognised by their shape alone. */
export type ValueType = 'email' | 'url' | 'phone' | 'date' | 'amount' | 'id' | 'address' | 'text';

export const EMAIL_RE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
export const URL_RE = /\b(?:https?:\/\/|www\.)[^\s,;]+/gi;
export const PHONE_RE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}\b/g;
export const ID_RE = /\b(?=[A-Z0-9\-/]*\d)(?=[A-Z0-9\-/]*[A-Z])[A-Z0-9]+(?:[-/][A-Z0-9]+)+\b|\b[A-Z]{2,}\d{3,}\b/g;
/** Contact details (e-mail, website, phone) in a phrase: they end an address block. */
export const CONTACT_RE = /@|https?:|www\.|(?<![\p{L}\p{N}])(?:tel|phone|fax|mobile|e-?mail|contact)(?![\p{L}\p{N}])|\+\d/iu;

export const STREET_RE =
  /^\d+[A-Za-z]?,?\s+(?:[\w'.-]+\s+){0,4}(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|way|boulevard|blvd|court|ct|place|pl|square|sq|highway|hwy|parkway|pkwy|terrace|close|crescent|row|alley|strasse|straße|weg|platz|laan|straat)\b\.?/i;

/** The type of a short value text, judged by its shape (the most specific type that fits the whole). */
export function typeOfValue(text: string, order: DateOrder = 'DMY'): ValueType {
  const t = text.trim();
  const whole = (re: RegExp) => {
    re.lastIndex = 0;
    const m = re.exec(t);
    return Boolean(m && m[0].length >= t.length * 0.8);
  };
  if (whole(EMAIL_RE)) return 'email';
  if (whole(URL_RE)) return 'url';
  const dates = findDates(t, order);
  if (dates.length === 1 && dates[0].raw.length >= t.length * 0.7) return 'date';
  const amounts = findAmounts(t);
  if (amounts.length === 1 && amounts[0].raw.length >= t.replace(/\s/g, '').length * 0.7 && /[.,]\d{2}\b|[$€£¥₹]|\b[A-Z]{3}\b/.test(t)) return 'amount';
  if (whole(PHONE_RE) && t.replace(/\D/g, '').length >= 7) return 'phone';
  if (STREET_RE.test(t)) return 'address';
  if (whole(ID_RE) || (/^[A-Z0-9][A-Z0-9\-/_.]*\d[A-Z0-9\-/_.]*$/i.test(t) && /\d/.test(t) && t.length >= 3 && !/\s/.test(t))) return 'id';
  return 'text';
}
