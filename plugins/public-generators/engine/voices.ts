import type { TextTask } from '../../../src/server';
import { baseForm, extractFacts, type CompanyFacts } from './company-facts';
import { capitalise, decapitalise, hash, pick } from './text-tools';

/**
 * The five pitch voices of /hal. Each voice has its own vocabulary and sentence shapes (Santa's
 * ho-ho-ho and workshop, Lincoln's oratory, Yoda's inverted syntax, Steve Irwin's exclamations,
 * the rap's rhyming couplets); the template engine fills them with the company's facts, and a
 * model is given the same style guide when one is configured.
 */

export const VOICES = ['Santa', 'Abraham Lincoln', 'Yoda', 'Steve Irwin', 'eminem rap'] as const;
export type VoiceId = (typeof VOICES)[number];

/** The voice asked for is not one of the five. */
export class VoiceError extends Error {
  constructor(voice: string) {
    super(`"${voice}" is not a pitch voice. Please choose one of: ${VOICES.join(', ')}.`);
    this.name = 'VoiceError';
  }
}

/** Maps user input (any case, extra spaces) to a voice id; throws VoiceError otherwise. */
export function resolveVoice(input: string): VoiceId {
  const wanted = (input ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  const found = VOICES.find((v) => v.toLowerCase() === wanted);
  if (!found) throw new VoiceError(input);
  return found;
}

/** Values a voice template fills in. */
interface Slots {
  name: string;
  verb: string;
  object: string;
  supporting?: string;
  k1: string;
  k2: string;
}

type Line = (s: Slots) => string;

interface VoiceDefinition {
  /** Style guide for a model. */
  style: string;
  /** Sections in order; each is a list of alternatives, one chosen per pitch. */
  sections: Array<{ lines: Line[]; needsSupporting?: boolean }>;
  /** Joins the chosen lines (prose paragraphs or verse lines). */
  join: (lines: string[]) => string;
}

const prose = (lines: string[]) => lines.join(' ');
const verse = (lines: string[]) => lines.join('\n');
const lower = (text: string | undefined) => decapitalise(text ?? '');

const DEFINITIONS: Record<VoiceId, VoiceDefinition> = {
  Santa: {
    style:
      'Santa Claus: jolly and warm, opens and closes with "Ho ho ho!", talks of elves, the workshop, the sleigh, reindeer, the nice list, presents under the tree and the North Pole.',
    sections: [
      {
        lines: [
          () => 'Ho ho ho! Gather round the fireplace, my dears, because Santa has one more gift to unwrap this season.',
          () => 'Ho ho ho! Merry greetings from the North Pole, where the elves have been whispering about a very special name.',
          () => 'Ho ho ho! Santa checked his list twice, and one company sparkled brighter than the star atop the tree.',
        ],
      },
      {
        lines: [
          (s) =>
            `Down in my workshop the elves can't stop chattering about ${s.name}. ${s.name} ${s.verb} ${s.object}, and that is a present anybody would be thrilled to find beneath their tree!`,
          (s) =>
            `This year's brightest package carries the tag ${s.name}. It ${s.verb} ${s.object} — wrapped with a shiny red bow, just the way Rudolph likes it!`,
        ],
      },
      {
        needsSupporting: true,
        lines: [
          (s) => `And here's a twinkle of good cheer from my sack: ${lower(s.supporting)}.`,
          (s) => `Mrs. Claus read this aloud over hot cocoa: ${lower(s.supporting)}. Jolly marvellous!`,
        ],
      },
      {
        lines: [
          (s) => `When it comes to ${s.k1} and ${s.k2}, they're on the nice list, no question about it.`,
          (s) => `${capitalise(s.k1)}? ${capitalise(s.k2)}? Dasher and Dancer would fly through a blizzard for that!`,
        ],
      },
      {
        lines: [
          (s) => `So hitch up your sleigh and call ${s.name} today — the merriest gifts never wait for Christmas Eve. Ho ho ho!`,
          (s) => `Don't let this one melt like a snowman in spring: write to ${s.name}, and may your season be merry and bright! Ho ho ho!`,
        ],
      },
    ],
    join: prose,
  },
  'Abraham Lincoln': {
    style:
      'Abraham Lincoln: solemn nineteenth-century oratory in long balanced sentences, echoes of the Gettysburg Address ("fourscore", "dedicated to the proposition", "of the people, by the people, for the people", "shall not perish"), calm and dignified.',
    sections: [
      {
        lines: [
          () =>
            'Fourscore and a few product cycles ago, an enterprise was brought forth upon this continent, conceived in ingenuity and dedicated to the proposition that every customer deserves better.',
          () => 'Friends and fellow citizens, I come before you not to praise idle promises, but to speak plainly of honest labour.',
          () => 'A house divided against itself cannot stand, and neither can a business divided from the means it requires.',
        ],
      },
      {
        lines: [
          (s) =>
            `Now we are engaged in a great endeavour, testing whether any enterprise so conceived can long endure. ${s.name} ${s.verb} ${s.object}; of this let there be no doubt.`,
          (s) =>
            `It is altogether fitting and proper that we should speak of ${s.name}, for ${s.name} ${s.verb} ${s.object}, and the nation shall long remember it.`,
        ],
      },
      {
        needsSupporting: true,
        lines: [
          (s) => `Consider, too, this solemn truth: ${lower(s.supporting)}.`,
          (s) => `Let the record show, with malice toward none and charity for all, that ${lower(s.supporting)}.`,
        ],
      },
      {
        lines: [
          (s) => `In matters of ${s.k1} and of ${s.k2}, it has proven itself steadfast and true.`,
          (s) => `Upon the great questions of ${s.k1} and ${s.k2}, it has neither faltered nor failed.`,
        ],
      },
      {
        lines: [
          (s) =>
            `Therefore let us here highly resolve that this opportunity shall not perish from the earth: call upon ${s.name}, of the people, by the people, for the people.`,
          (s) =>
            `The world will little note, nor long remember, what we say here — but it can never forget what ${s.name} accomplishes. Let us act, and act now.`,
        ],
      },
    ],
    join: prose,
  },
  Yoda: {
    style:
      'Yoda: inverted object-subject-verb word order ("Powerful, this company is."), short sentences, "Hmmm", "young Padawan", "the Force", "Do or do not, there is no try."',
    sections: [
      {
        lines: [
          () => 'Hmmm. A great company, sense I do.',
          () => 'Come closer, young Padawan. Tell you something, I must.',
          () => 'Strong in the Force, this one is. Yes, hmmm.',
        ],
      },
      {
        lines: [
          (s) => `${capitalise(s.object)}, ${s.name} ${s.verb}. Hmmm. Rare, such skill is.`,
          (s) => `${capitalise(s.object)} — ${s.verb} ${s.name}, yes. Powerful, this is.`,
        ],
      },
      {
        needsSupporting: true,
        lines: [(s) => `True also it is: ${lower(s.supporting)}. Mmm.`, (s) => `Heard this, have you? ${capitalise(s.supporting ?? '')}. Impressed, I am.`],
      },
      {
        lines: [(s) => `Of ${s.k1} and ${s.k2}, much ${s.name} knows.`, (s) => `${capitalise(s.k1)} and ${s.k2}, mastered they have.`],
      },
      {
        lines: [
          (s) => `Do or do not, there is no try. Contact ${s.name}, you must. Regret it, you will not.`,
          (s) => `Wait long, you should not. To ${s.name}, reach out you will. Hmmm, yes.`,
        ],
      },
    ],
    join: prose,
  },
  'Steve Irwin': {
    style:
      'Steve Irwin, the wildlife presenter: breathless Australian enthusiasm, "Crikey!", "mate", "Strewth", "what a beauty", "in its natural habitat", comparisons with crocodiles, snakes, kangaroos and wombats, lots of exclamation marks.',
    sections: [
      {
        lines: [
          () => 'Crikey! Would ya look at that, mate!',
          () => "G'day, everyone! Crikey, have I got a beauty for you today!",
          () => "Strewth! Keep your voice down, mate, we've spotted something rare out here in the wild!",
        ],
      },
      {
        lines: [
          (s) => `Right here in its natural habitat we've got ${s.name}! This little ripper ${s.verb} ${s.object}. Isn't she gorgeous?`,
          (s) => `Look at the size of it! That's ${s.name}, and it ${s.verb} ${s.object}. What a magnificent specimen!`,
        ],
      },
      {
        needsSupporting: true,
        lines: [
          (s) => `And get this, mate: ${lower(s.supporting)}! Absolutely incredible!`,
          (s) => `Now here's the bit that gets my heart racing: ${lower(s.supporting)}! Danger, danger!`,
        ],
      },
      {
        lines: [
          (s) => `When it comes to ${s.k1} and ${s.k2}, this critter's the apex predator, no worries!`,
          (s) => `Sharp as a croc's tooth on ${s.k1} and quick as a roo on ${s.k2}!`,
        ],
      },
      {
        lines: [
          (s) => `So don't just stand there like a startled wombat — get in touch with ${s.name} today! Crikey, you'll love it!`,
          (s) => `Go on, give ${s.name} a bell, mate! Fair dinkum, it's the best find of the whole expedition!`,
        ],
      },
    ],
    join: prose,
  },
  'eminem rap': {
    style:
      'An Eminem-style rap: rhyming couplets (AABB), fast internal rhythm, "yo", mic and beat imagery, references like "one shot", "palms sweaty", "lose yourself"; every line break is a bar; no profanity.',
    sections: [
      {
        lines: [
          (s) => `Yo, check the mic, one two, let me set the scene,\n${s.name} on the track, the sharpest in the machine;`,
          (s) => `Yo, drop the beat low, let the bass line ride,\n${s.name} stepping up with nothing left to hide;`,
        ],
      },
      {
        lines: [
          (s) => `They ${baseForm(s.verb)} ${s.object}, no lie, that's the flow,\nSpit it in your boardroom, let the whole world know.`,
          (s) => `Every single night they ${baseForm(s.verb)} ${s.object}, and they do it right,\nNobody on the block can make it shine this bright.`,
        ],
      },
      {
        needsSupporting: true,
        lines: [
          (s) => `Here's a fact I'm dropping like a beat at the show:\n${capitalise(s.supporting ?? '')} — now watch the numbers grow.`,
          (s) => `Write this in your rhyme book, underline it twice:\n${capitalise(s.supporting ?? '')} — yeah, that flow is cold as ice.`,
        ],
      },
      {
        lines: [
          (s) => `Palms sweaty, deals heavy, still they never drop,\n${capitalise(s.k1)}, ${s.k2}, they climb right to the top.`,
          (s) => `Bars on ${s.k1}, verses on ${s.k2}, all night long,\nThat's the kind of spark that turns a pitch into a song.`,
        ],
      },
      {
        lines: [
          (s) => `One shot, one opportunity, the moment is now,\nRing up ${s.name}, let 'em show you how.`,
          (s) => `You only get one shot, so don't you let it slip,\nHit up ${s.name} today and watch the whole crowd flip.`,
        ],
      },
    ],
    join: verse,
  },
};

/** Fills the slots from the facts, with neutral keywords when the description has few. */
function slots(facts: CompanyFacts): Slots {
  const [k1 = 'quality', k2 = 'service'] = facts.keywords;
  return { name: facts.name, verb: facts.verb, object: facts.object, supporting: facts.supporting, k1, k2: k2 === k1 ? 'service' : k2 };
}

/** The template rendering of one pitch: deterministic for the same company, description and voice. */
export function renderPitch(facts: CompanyFacts, voice: VoiceId): string {
  const definition = DEFINITIONS[voice];
  const seed = hash(`${facts.name}\n${facts.object}\n${voice}`);
  const filled = slots(facts);
  const lines = definition.sections
    .filter((section) => !section.needsSupporting || filled.supporting)
    .map((section, i) => pick(section.lines, seed, i)(filled));
  return definition.join(lines);
}

export interface PitchRequest {
  companyName: string;
  companyDescription: string;
  voice: string;
}

/**
 * Builds the text task for one pitch: a template in the chosen voice (always available) and a
 * prompt carrying the same facts and style guide for a model. Throws VoiceError for an unknown
 * voice and CompanyFactsError for a missing name or description.
 */
export function writePitch(request: PitchRequest): TextTask {
  const voice = resolveVoice(request.voice);
  const facts = extractFacts(request.companyName, request.companyDescription);
  const definition = DEFINITIONS[voice];
  return {
    name: 'pitcher.pitch',
    system:
      'You write short, upbeat sales pitches for companies in a requested character voice. ' +
      'Use only facts given by the user; never invent figures, customers or awards. ' +
      'Write 90 to 160 words, plain text, no headings, no profanity.',
    prompt: [
      `Voice: ${voice}. Style: ${definition.style}`,
      `Company: ${facts.name}`,
      `What the company does: ${request.companyDescription.trim()}`,
      'Write the pitch now, naming the company and using its facts.',
    ].join('\n'),
    template: () => renderPitch(facts, voice),
    maxTokens: 450,
  };
}
