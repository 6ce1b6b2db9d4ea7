import type { ConsoleSession, ConsoleSessionRepository } from '../repositories/console-session.repository.js';

/** The console's sign-ins (docs/console.md): a session per accepted key, ended by signing out or by time. */
export class ConsoleSessionService {
  constructor(private readonly deps: { sessions: ConsoleSessionRepository }) {}

  /** Starts a session for `apiKey`, which the key guard has just accepted. */
  open(apiKey: string): Promise<ConsoleSession> {
    return this.deps.sessions.open(apiKey);
  }

  /** The API key session `id` stands for, or undefined when there is no such session (unknown, ended, malformed). */
  keyOf(id: string): Promise<string | undefined> {
    return this.deps.sessions.keyOf(id);
  }

  /** Ends session `id`. */
  close(id: string): Promise<void> {
    return this.deps.sessions.close(id);
  }
}
