/** A text generator was configured with values it cannot work with (a deployment mistake). */
export class TextGeneratorConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TextGeneratorConfigError';
  }
}
