/** A WordNet data file that does not follow wndb(5WN); the message starts with `path:line`. */
export class WordnetDataError extends Error {
  /** `path:line` of the offending line. */
  readonly where: string;

  constructor(where: string, reason: string) {
    super(`${where}: ${reason}`);
    this.name = 'WordnetDataError';
    this.where = where;
  }
}
