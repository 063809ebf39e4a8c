/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Appended to every page title ("设备列表 - Linewatch"). */
  readonly TITLE_SUFFIX?: string;
  /** This build's sources, hashed (vite.config.ts): what the last-known data was saved by. */
  readonly VITE_BUILD_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
