// Change events for the platform's models, without the editor: `event` has the shape of VS Code's
// `Event<T>` (listen, get a disposable back), so views subscribe to a model as to any VS Code event.

export interface Subscription {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => unknown) => Subscription;

export class Emitter<T> {
  private listeners: ((e: T) => unknown)[] = [];

  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  /** Calls every listener; one that throws does not keep the others from hearing it. */
  fire(e: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(e);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}
