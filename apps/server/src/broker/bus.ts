/** How the server talks to the broker: gateway messages in, acknowledgements out. */
export interface Bus {
  readonly connected: boolean;
  publishAck(gatewayId: string, seq: number): void;
  /** Stop taking new gateway messages (first step of a graceful shutdown). */
  stopIntake(): Promise<void>;
  close(): Promise<void>;
}

export type MessageHandler = (topic: string, payload: Buffer) => void;
