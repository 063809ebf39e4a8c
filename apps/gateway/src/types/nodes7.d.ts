// nodes7 ships no types: what the S7 driver uses of it.
declare module 'nodes7' {
  interface ConnectionParams {
    host: string;
    port: number;
    rack: number;
    slot: number;
    /** Each request's timeout, ms. */
    timeout: number;
  }
  class NodeS7 {
    constructor(options?: { silent?: boolean; debug?: boolean });
    initiateConnection(params: ConnectionParams, callback: (error?: unknown) => void): void;
    setTranslationCB(translate: (tag: string) => string): void;
    addItems(items: string[]): void;
    /** `anythingBad` is true when any item could not be read (its value then reads "BAD …"). */
    readAllItems(
      callback: (anythingBad: boolean, values: Record<string, number | boolean | string>) => void,
    ): void;
    dropConnection(callback?: () => void): void;
  }
  export default NodeS7;
}
