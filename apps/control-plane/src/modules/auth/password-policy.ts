import { ZxcvbnFactory, type MatchExtended } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

/**
 * NIST SP 800-63B-4 §3.1.1.2 for a password that is the only factor: at least 15 characters; the upper
 * bound keeps argon2 from being used to burn CPU (the guideline asks for at least 64 to be allowed).
 */
export const PASSWORD_LENGTH = { min: 15, max: 256 } as const;

/**
 * zxcvbn's score 3 and up: the estimate is at least 10^8 guesses once the password is read as the
 * common passwords, words, names, keyboard walks, repeats, sequences, dates and context words it is made
 * of. Below it the password is one of NIST's "commonly-used, expected, or compromised" values.
 */
const MIN_SCORE = 3;
/**
 * zxcvbn's cost grows quickly with length and with the l33t substitutions it tries: the first 64
 * characters decide (a weak start stays weak), and up to three substitutions (p@ssw0rd) are undone, which
 * keeps the worst check under a tenth of a second.
 */
const CHECKED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 3;
/** Words of this service itself, always part of the context. */
const SERVICE_WORDS = ['noderings', 'nodering', 'nrings'];
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
/** Shorter context fragments would match inside ordinary words. */
const MIN_CONTEXT_WORD_LENGTH = 3;
/**
 * Letters and digits a password must have besides its context words: NIST's least length for any
 * password (SP 800-63B-4 §3.1.1.2, with another factor), so that the part of it no one can read off the
 * account is a password by itself.
 */
const MIN_OWN_CHARACTERS = 8;

export interface PasswordContext {
  readonly email: string;
  readonly organizationName: string | undefined;
}

let estimator: ZxcvbnFactory | undefined;

/** Built on first use (the dictionaries take a moment to rank) and shared: it holds only static data. */
function passwordEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
  return estimator;
}

/** The email, its name part and the words in it, the organisation's name and words, and ours. */
function contextWords(context: PasswordContext): string[] {
  const email = context.email.toLowerCase();
  const localPart = email.split('@')[0] ?? email;
  const organization = context.organizationName?.toLowerCase() ?? '';
  const words = (text: string) => [text, text.replace(SEPARATORS, ''), ...text.split(SEPARATORS)];
  return [email, ...words(localPart), ...words(organization), ...SERVICE_WORDS].filter(
    (w, i, all) => w.length >= MIN_CONTEXT_WORD_LENGTH && all.indexOf(w) === i,
  );
}

/**
 * What is wrong with a new password, as a field description a person understands, or undefined when it
 * may be used. No composition rules: length, and whether it is guessable.
 */
export function newPasswordProblem(password: string, context: PasswordContext): string | undefined {
  // NIST counts each Unicode code point as one character.
  const length = Array.from(password).length;
  if (length < PASSWORD_LENGTH.min)
    return `must have at least ${String(PASSWORD_LENGTH.min)} characters: a few words of your own make a good one`;
  if (length > PASSWORD_LENGTH.max) return `must have at most ${String(PASSWORD_LENGTH.max)} characters`;
  const words = contextWords(context);
  const result = passwordEstimator().check(password.slice(0, CHECKED_LENGTH), words);
  if (result.score < MIN_SCORE) return describeWeakness(result.sequence);
  // zxcvbn scores context words joined by separators too kindly (`noderings-123456`).
  if (ownCharacters(password, words) < MIN_OWN_CHARACTERS) return MADE_OF_CONTEXT;
  return undefined;
}

const MADE_OF_CONTEXT =
  "is too easy to guess: it is made of your email address, your organisation's name or NodeRings";

/** The letters and digits left once every context word is taken out, longest words first. */
function ownCharacters(password: string, words: readonly string[]): number {
  let rest = password.toLowerCase();
  for (const word of [...words].sort((a, b) => b.length - a.length)) rest = rest.split(word).join(' ');
  return Array.from(rest.replace(SEPARATORS, '')).length;
}

function describeWeakness(matches: readonly MatchExtended[]): string {
  const has = (pattern: string, dictionary?: (name: string) => boolean) =>
    matches.some(
      (m) =>
        m.pattern === pattern &&
        (dictionary === undefined || (typeof m.dictionaryName === 'string' && dictionary(m.dictionaryName))),
    );
  if (has('dictionary', (name) => name === 'userInputs')) return MADE_OF_CONTEXT;
  if (has('repeat')) return 'is too easy to guess: it repeats a character or a pattern (like aaaa or abcabc)';
  if (has('sequence')) return 'is too easy to guess: it is a sequence (like 12345 or abcde)';
  if (has('spatial')) return 'is too easy to guess: it is a walk along the keyboard (like qwerty or asdfgh)';
  if (has('dictionary', (name) => name.startsWith('passwords')))
    return 'is a commonly used password: choose words of your own';
  return 'is too easy to guess: add a few more words of your own';
}
