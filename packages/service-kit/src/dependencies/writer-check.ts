import type { Connection, RowDataPacket } from 'mysql2/promise';

/** What the writer said: it answers and takes writes, or it answers but refuses them. */
export type WriterState = 'writable' | 'read-only';

/** A connection drop another connection may not meet (HAProxy moved the writer and cut its sessions). */
const DROPPED = new Set(['PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'EPIPE', 'ER_CONNECTION_KILLED']);
/** The check's own timeout (the writer did not answer in time), as opposed to a refusal or an error. */
export const isWriterCheckTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === 'writer check timed out';

const isDropped = (error: unknown): boolean => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return DROPPED.has(String(code)) || /closed state|Connection lost/i.test(String(message));
};

export interface WriterCheckOptions {
  /** Opens the check's own connection (never a pool's: its session settings must not reach the app's queries). */
  connect: () => Promise<Connection>;
  /** The whole check, connecting included, unless `check` is given another bound. */
  timeoutMs: number;
}

/**
 * Asks the writer whether it takes writes, on a connection of its own kept between checks:
 * `@@global.read_only` must be 0, and on a Galera node (`wsrep_on`) `wsrep_ready` must be ON. On
 * Galera the connection's reads wait for the cluster (`wsrep_sync_wait = 1`: a causality check
 * that goes round the group), so a cluster that holds commits while it evicts a node holds the
 * check too, and `SELECT 1` would not. A dropped connection is tried once more on a fresh one
 * before the check fails. Rejects when the writer does not answer within `timeoutMs`.
 */
interface Session {
  connection: Connection;
  galera: boolean;
  broken: boolean;
}

export class WriterCheck {
  private session: Promise<Session> | undefined;
  /** Whether `session` has connected. */
  private connected = false;
  /** When the kept connection was sent the oldest question it has not answered. */
  private unansweredSince: number | undefined;

  constructor(private readonly options: WriterCheckOptions) {}

  async check(timeoutMs = this.options.timeoutMs): Promise<WriterState> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // The connection is kept: a slow writer answers the next check's question after this one's,
        // a stalled one answers neither, and a dead one errors. Only a connection that has not
        // answered for a long while (a peer gone without a word) is given up.
        const unanswered = this.unansweredSince;
        if (this.connected && unanswered !== undefined && Date.now() - unanswered > 4 * timeoutMs) this.close();
        reject(Object.assign(new Error('writer check timed out'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }));
      }, timeoutMs);
    });
    const answer = this.ask().catch((error: unknown) => {
      if (!isDropped(error)) throw error;
      return this.ask();
    });
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
      answer.catch(() => undefined);
    }
  }

  /** Opens the kept connection ahead of the first check, so that one measures the writer, not a handshake. */
  prepare(): void {
    if (this.session) return;
    const pending = (this.session = this.open());
    pending.catch(() => {
      if (this.session === pending) this.session = undefined;
    });
  }

  /** Closes the kept connection; the next check opens another. */
  close(): void {
    const session = this.session;
    this.session = undefined;
    this.connected = false;
    this.unansweredSince = undefined;
    void session?.then(
      ({ connection }) => connection.destroy(),
      () => undefined,
    );
  }

  private async ask(): Promise<WriterState> {
    let pending = this.session;
    if (pending === undefined) this.session = pending = this.open();
    const forget = (): void => {
      if (this.session === pending) this.close();
    };
    let session: Session;
    try {
      session = await pending;
    } catch (error) {
      forget();
      throw error;
    }
    if (session.broken) {
      forget();
      return this.ask();
    }
    this.unansweredSince ??= Date.now();
    try {
      const [rows] = await session.connection.query<RowDataPacket[]>('SELECT @@global.read_only AS readOnly');
      if (this.session === pending) this.unansweredSince = undefined;
      if (Number(rows[0]?.readOnly) !== 0) return 'read-only';
      if (!session.galera) return 'writable';
      const [status] = await session.connection.query<RowDataPacket[]>("SHOW GLOBAL STATUS LIKE 'wsrep_ready'");
      return String(status[0]?.Value).toUpperCase() === 'ON' ? 'writable' : 'read-only';
    } catch (error) {
      forget();
      throw error;
    }
  }

  private async open(): Promise<Session> {
    const connection = await this.options.connect();
    const session: Session = { connection, galera: false, broken: false };
    // A connection dropped between checks says so here (not as an unhandled 'error' event).
    connection.on('error', () => {
      session.broken = true;
    });
    try {
      // SHOW, not @@wsrep_on: MySQL has no such variable, and SHOW answers it with no row.
      const [rows] = await connection.query<RowDataPacket[]>("SHOW GLOBAL VARIABLES LIKE 'wsrep_on'");
      session.galera = String(rows[0]?.Value).toUpperCase() === 'ON';
      if (session.galera) await connection.query('SET SESSION wsrep_sync_wait = 1');
      this.connected = true;
      return session;
    } catch (error) {
      connection.destroy();
      throw error;
    }
  }
}
