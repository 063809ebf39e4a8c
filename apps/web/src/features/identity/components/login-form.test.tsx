import { identityMessages } from '@linewatch/contracts/identity-messages';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoginForm } from './login-form.tsx';

const setup = () => {
  const onSubmit = vi.fn();
  render(<LoginForm submitting={false} onSubmit={onSubmit} />);
  return { onSubmit, user: userEvent.setup() };
};

describe('login form', () => {
  it('asks for both fields when submitted empty', async () => {
    const { onSubmit, user } = setup();
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText(identityMessages.usernameRequired)).toBeTruthy();
    expect(screen.getByText(identityMessages.passwordRequired)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('treats a username of spaces as empty', async () => {
    const { onSubmit, user } = setup();
    await user.type(screen.getByPlaceholderText('请输入用户名'), '   ');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'secret');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名不能为空')).toBeTruthy();
    expect(screen.queryByText('密码不能为空')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the filled-in form', async () => {
    const { onSubmit, user } = setup();
    await user.type(screen.getByPlaceholderText('请输入用户名'), 'E1001');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'secret');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ psnCode: 'E1001', passWord: 'secret' });
  });

  it('shows and hides the password with the eye toggle', async () => {
    const { user } = setup();
    const password = screen.getByPlaceholderText('请输入密码');
    expect(password.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: '显示密码' }));
    expect(password.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: '隐藏密码' }));
    expect(password.getAttribute('type')).toBe('password');
  });
});
