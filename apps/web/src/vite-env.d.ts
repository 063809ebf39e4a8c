/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Appended to every page title ("设备列表 - Linewatch"). */
  readonly TITLE_SUFFIX?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
