/**
 * A tool an arm cannot encode. runArm counts it as a skipped tool with an example; it is never
 * silently truncated or dropped. `toolId` names the tool at fault when the error comes from a
 * listing (e.g. a class-name collision in tron_dedup), so the runner can skip exactly that tool.
 */
export class ArmEncodeError extends Error {
  constructor(
    readonly armId: string,
    message: string,
    readonly toolId?: string,
  ) {
    super(toolId ? `${armId}: ${toolId}: ${message}` : `${armId}: ${message}`);
    this.name = 'ArmEncodeError';
  }
  /** the message without the arm/tool prefix, for skip examples */
  get reason(): string {
    return this.message.replace(this.toolId ? `${this.armId}: ${this.toolId}: ` : `${this.armId}: `, '');
  }
}
