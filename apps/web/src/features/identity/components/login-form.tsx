import type { LoginForm as LoginFormValues } from '@linewatch/contracts/identity';
import { Button, Input } from 'antd-mobile';
import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { lazySchemaResolver } from '../../../shared/use-contract-form.ts';
import styles from './login-form.module.css';

// zod and the contract schema are a fifth of the login screen's JavaScript: fetch them after the
// first paint (the form validates on submit), keeping the first screen within its budget.
const loadSchema = async () => (await import('@linewatch/contracts/identity')).loginFormSchema;

interface LoginFormProps {
  submitting: boolean;
  onSubmit: (values: LoginFormValues) => void;
}

export const LoginForm = ({ submitting, onSubmit }: LoginFormProps) => {
  const [passwordVisible, setPasswordVisible] = useState(false);
  useEffect(() => void loadSchema(), []);
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginFormValues, unknown, LoginFormValues>({
    resolver: lazySchemaResolver(loadSchema),
    defaultValues: { psnCode: '', passWord: '' },
  });

  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={(event) => void handleSubmit(onSubmit)(event)}
    >
      <label className={styles.field}>
        <span className={styles.label}>用户名</span>
        <Controller
          name="psnCode"
          control={control}
          render={({ field }) => (
            <Input
              className={styles.input}
              data-testid="login-username"
              placeholder="请输入用户名"
              autoComplete="username"
              clearable
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
      </label>
      <div className={styles.error} data-testid="login-username-error" role="alert">
        {errors.psnCode?.message}
      </div>

      <label className={styles.field}>
        <span className={styles.label}>密码</span>
        <Controller
          name="passWord"
          control={control}
          render={({ field }) => (
            <Input
              className={styles.input}
              data-testid="login-password"
              type={passwordVisible ? 'text' : 'password'}
              placeholder="请输入密码"
              autoComplete="current-password"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
        <button
          type="button"
          className={styles.eye}
          data-testid="login-password-toggle"
          aria-label={passwordVisible ? '隐藏密码' : '显示密码'}
          onClick={() => setPasswordVisible((visible) => !visible)}
        >
          {passwordVisible ? <EyeOutline /> : <EyeInvisibleOutline />}
        </button>
      </label>
      <div className={styles.error} data-testid="login-password-error" role="alert">
        {errors.passWord?.message}
      </div>

      <Button
        className={styles.submit}
        data-testid="login-submit"
        block
        color="primary"
        size="large"
        type="submit"
        loading={submitting}
      >
        登录
      </Button>
    </form>
  );
};
