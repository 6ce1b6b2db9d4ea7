/** What services log through: the service-kit Logger in the process, anything alike in specs. */
export interface ServiceLogger {
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
}
