// A publish that stopped, and at which step: every message says what failed, why and what to do.
export type PublishStep = 'not-a-package' | 'bad-manifest' | 'check' | 'build' | 'pack' | 'verify';

export class PublishError extends Error {
  constructor(
    readonly step: PublishStep,
    message: string,
    /** The build's output, when the build failed. */
    readonly output?: string,
  ) {
    super(message);
    this.name = 'PublishError';
  }
}
