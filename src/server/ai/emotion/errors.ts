/** The text to analyse is missing or holds no sentence. */
export class EmptyTextError extends Error {
  readonly statusCode = 400;
  constructor() {
    super('Please enter some text to analyse; the text is empty.');
    this.name = 'EmptyTextError';
  }
}

/** The text is longer than the analyser accepts in one request. */
export class TextTooLongError extends Error {
  readonly statusCode = 413;
  constructor(readonly maxChars: number) {
    super(`The text is too long to analyse at once; the limit is ${maxChars.toLocaleString('en-GB')} characters.`);
    this.name = 'TextTooLongError';
  }
}
