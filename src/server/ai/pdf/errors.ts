/** A document that cannot be read: corrupt, encrypted, empty or of an unsupported type. */
export class DocumentReadError extends Error {
  constructor(
    message: string,
    readonly reason: 'corrupt' | 'encrypted' | 'empty' | 'unsupported' | 'too-large',
  ) {
    super(message);
    this.name = 'DocumentReadError';
  }
}
