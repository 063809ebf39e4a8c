/** The browser WebSocket, replaced (`vi.stubGlobal('WebSocket', FakeSocket)`): a page talks to the last one created. */
export class FakeSocket {
  static last: FakeSocket | null = null;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  /** What the page sent, in order. */
  readonly sent: string[] = [];
  send(data: string) {
    this.sent.push(data);
  }
  close() {}

  /** The last socket the page opened. */
  static current(): FakeSocket {
    if (!FakeSocket.last) throw new Error('no socket');
    return FakeSocket.last;
  }

  /** Opens and pushes one message, as the server does on connect. */
  openWith(message: unknown): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
    this.push(message);
  }

  push(message: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
}
