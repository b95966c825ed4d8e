/**
 * A FIFO turnstile: one measured call at a time, in arrival order. Systems measured side by side
 * each await their next call through it; since each system issues its calls one after another,
 * a FIFO queue alternates between them (A, B, A, B, ...), so machine noise hits all alike.
 */
export class Turnstile {
  private tail: Promise<void> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => {},
      () => {},
    );
    return result;
  }
}
