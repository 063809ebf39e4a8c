import type { MediaRef } from '@linewatch/contracts/faca';
import { facaMessages } from '@linewatch/contracts/faca-labels';
import { mediaPaths } from '@linewatch/contracts/faca-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toast } from 'antd-mobile';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../shared/session-store.ts';
import { MediaUploader } from './media-uploader.tsx';

/** An XMLHttpRequest the test drives: it reports upload progress and answers when told. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  readonly upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = {
    onprogress: null,
  };
  readonly headers: Record<string, string> = {};
  method = '';
  url = '';
  body: FormData | null = null;
  timeout = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }

  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }
  async answer(data: unknown) {
    this.responseText = JSON.stringify({ success: true, code: '0000', msg: '', data });
    await act(async () => this.onload?.());
  }
}

const Pictures = () => {
  const [value, setValue] = useState<MediaRef[]>([]);
  return <MediaUploader type="pic" value={value} onChange={setValue} testId="pics" />;
};

const stored = (id: string): MediaRef => ({
  id,
  type: 'pic',
  url: `${mediaPaths.hdImage}?id=${id}&type=pic`,
  thumbUrl: `${mediaPaths.thumbnail}?id=${id}`,
});

const png = (name: string, bytes = 2048) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });

afterEach(() => {
  FakeXhr.sent = [];
  vi.unstubAllGlobals();
  useSession.getState().clear();
  Toast.clear();
});

describe('picture upload', () => {
  it('shows a progress bar that follows the upload, then the picture', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    useSession.getState().signIn('key-1');
    render(<Pictures />);
    const user = userEvent.setup();

    await user.upload(screen.getByLabelText('选择图片'), png('现场.png'));
    const xhr = FakeXhr.sent[0]!;
    expect([xhr.method, xhr.url]).toEqual(['POST', `${mediaPaths.upload}?type=pic`]);
    expect(xhr.headers[KEY_ID_HEADER]).toBe('key-1');
    expect((xhr.body?.get('file') as File).name).toBe('现场.png');

    const bar = screen.getByRole('progressbar', { name: '上传进度' });
    expect(bar.textContent).toBe('0%');
    xhr.progress(3, 10);
    expect(bar.textContent).toBe('30%');
    xhr.progress(10, 10);
    expect(bar.textContent).toBe('100%');
    // The bar is the fill's width, not only its label and value.
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    const widths = [...bar.querySelectorAll<HTMLElement>('*')].map((e) => e.style.width);
    expect(widths).toContain('100%');

    await xhr.answer([stored('a'.repeat(32))]);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('img', { name: '图片' }).getAttribute('src')).toBe(
      `${mediaPaths.thumbnail}?id=${'a'.repeat(32)}`,
    );
  });

  it('uploads several pictures one by one, each with its own bar from 0', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    render(<Pictures />);
    await userEvent.setup().upload(screen.getByLabelText('选择图片'), [png('1.png'), png('2.jpg')]);
    FakeXhr.sent[0]!.progress(1, 2);
    expect(screen.getByRole('progressbar', { name: '上传进度' }).textContent).toBe('50%');
    expect(FakeXhr.sent).toHaveLength(1);
    await FakeXhr.sent[0]!.answer([stored('1'.repeat(32))]);
    expect(FakeXhr.sent).toHaveLength(2);
    expect(screen.getByRole('progressbar', { name: '上传进度' }).textContent).toBe('0%');
    await FakeXhr.sent[1]!.answer([stored('2'.repeat(32))]);
    // Each stored picture can be removed on its own.
    expect(screen.getAllByRole('img', { name: '图片' })).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: '删除' })).toHaveLength(2);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('refuses what is not a picture before sending anything', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    render(<Pictures />);
    await userEvent
      .setup({ applyAccept: false })
      .upload(screen.getByLabelText('选择图片'), new File(['x'], 'run.exe'));
    await vi.waitFor(() => expect(document.body.textContent).toContain(facaMessages.onlyPictures));
    expect(FakeXhr.sent).toEqual([]);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
