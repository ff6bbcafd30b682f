import type { FeltEmotion } from './emotions';
import { LEXICON_SOURCE } from './lexicon-data';

export type EmotionVector = Partial<Record<FeltEmotion, number>>;

export interface LexiconEntry {
  /** The words of the key; '*' matches any one word. */
  words: string[];
  plain: EmotionVector;
  negated?: EmotionVector;
  hypothetical?: EmotionVector;
}

const LETTERS: Record<string, FeltEmotion> = { A: 'anger', D: 'disgust', F: 'fear', J: 'joy', S: 'sadness', U: 'surprise' };

function parseVector(text: string): EmotionVector {
  const v: EmotionVector = {};
  for (const m of text.matchAll(/([ADFJSU])(\d*\.?\d+)/g)) v[LETTERS[m[1]]] = Number(m[2]);
  return v;
}

/** Parses the lexicon source (see lexicon-data.ts for the format). */
export function parseLexicon(source: string): LexiconEntry[] {
  const entries: LexiconEntry[] = [];
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.lastIndexOf(' =');
    if (eq < 0) throw new Error(`Lexicon line without " =": ${line}`);
    const key = line
      .slice(0, eq)
      .trim()
      .replace(/\uFE0F/g, '');
    const rest = ` ${line.slice(eq + 2)}`;
    const plain = /^([^~?]*)/.exec(rest)![1];
    const negated = /~([^?]*)/.exec(rest)?.[1];
    const hypothetical = /\?([^~]*)/.exec(rest)?.[1];
    entries.push({
      words: key.split(/\s+/),
      plain: parseVector(plain),
      ...(negated !== undefined ? { negated: parseVector(negated) } : {}),
      ...(hypothetical !== undefined ? { hypothetical: parseVector(hypothetical) } : {}),
    });
  }
  return entries;
}

/**
 * Base forms a word may be an inflection of, most likely first: worried → worry, annoying →
 * annoy/annoye, sickened → sicken, happiness → happy, angrily → angry, stopped → stop,
 * disappointments → disappointment → disappoint.
 */
export function lemmaCandidates(word: string): string[] {
  const out: string[] = [];
  const add = (w: string) => {
    if (w.length >= 2 && !out.includes(w)) out.push(w);
  };
  const strip = (w: string, depth: number) => {
    const rules: Array<[RegExp, string[]]> = [
      [/'s$/, ['']],
      [/ies$/, ['y']],
      [/ied$/, ['y']],
      [/iness$/, ['y']],
      [/ily$/, ['y']],
      [/ier$/, ['y']],
      [/iest$/, ['y']],
      [/ments?$/, ['']],
      [/ness$/, ['']],
      [/ful$/, ['']],
      [/ly$/, ['', 'le']],
      [/ing$/, ['', 'e']],
      [/ed$/, ['', 'e']],
      [/d$/, ['']],
      [/es$/, ['', 'e']],
      [/s$/, ['']],
      [/er$/, ['', 'e']],
      [/est$/, ['', 'e']],
    ];
    for (const [re, repls] of rules) {
      if (!re.test(w)) continue;
      for (const r of repls) {
        const base = w.replace(re, r);
        if (base.length < 3) continue;
        add(base);
        // stopped → stopp → stop
        if (/([b-df-hj-np-tv-z])\1$/.test(base)) add(base.slice(0, -1));
        if (depth < 1) strip(base, depth + 1);
      }
    }
  };
  strip(word, 0);
  return out;
}

/** The lexicon, indexed for lookup: single words by form, phrases by their first word. */
export class Lexicon {
  private readonly words = new Map<string, LexiconEntry>();
  private readonly phrases = new Map<string, LexiconEntry[]>();

  constructor(entries: LexiconEntry[]) {
    for (const e of entries) {
      if (e.words.length === 1) this.words.set(e.words[0], e);
      else {
        const list = this.phrases.get(e.words[0]) ?? [];
        list.push(e);
        list.sort((a, b) => b.words.length - a.words.length);
        this.phrases.set(e.words[0], list);
      }
    }
  }

  /** The entry for one word: its exact form first, then the nearest base form. */
  word(form: string): LexiconEntry | undefined {
    const exact = this.words.get(form.replace(/\uFE0F/g, ''));
    if (exact) return exact;
    for (const base of lemmaCandidates(form)) {
      const e = this.words.get(base);
      if (e) return e;
    }
    return undefined;
  }

  /** Phrases that may start with this word (exact form or a base form), longest first. */
  phrasesStartingWith(form: string): LexiconEntry[] {
    const found: LexiconEntry[] = [...(this.phrases.get(form) ?? [])];
    for (const base of lemmaCandidates(form)) found.push(...(this.phrases.get(base) ?? []));
    return found.sort((a, b) => b.words.length - a.words.length);
  }

  /** True when a phrase word matches a token (exact, base form, or the '*' wildcard). */
  static matches(pattern: string, token: string): boolean {
    return pattern === '*' ? /^[\p{L}\p{N}']+$/u.test(token) : pattern === token || lemmaCandidates(token).includes(pattern);
  }
}

let shared: Lexicon | undefined;
/** The built-in lexicon, parsed once. */
export function builtInLexicon(): Lexicon {
  return (shared ??= new Lexicon(parseLexicon(LEXICON_SOURCE)));
}
