import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack, Text, type MantineColor } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { ApiError } from '../lib/http';

/**
 * Why a save failed, in words the user can act on: the server's own for a refusal (4xx: a code
 * already taken, a date out of the term), else `fallback`, as a failure of the server or of the
 * connection says nothing they can change.
 */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;
}

interface FormAlertProps {
  children: ReactNode;
  title?: ReactNode;
  /** Where given, the alert has Dismiss. */
  onDismiss?: (() => void) | undefined;
}

function FormAlert({ children, title, onDismiss, failed }: FormAlertProps & { failed: boolean }) {
  const { t } = useLingui();
  return (
    <Alert
      color={failed ? 'red' : 'green'}
      icon={failed ? <IconAlertCircle size={18} aria-hidden /> : <IconCircleCheck size={18} aria-hidden />}
      title={title}
      // Mantine's green title on its light green is 3.8:1; the portal's own green keeps 4.5:1 in both schemes.
      styles={failed ? undefined : { title: { color: 'var(--portal-text-good)' } }}
      role={failed ? 'alert' : 'status'}
      withCloseButton={onDismiss !== undefined}
      closeButtonLabel={t`Dismiss`}
      onClose={onDismiss}
    >
      {children}
    </Alert>
  );
}

/** The alert a form shows when a save fails, above its fields: in red, said at once to screen readers. */
export function FormFailure(props: FormAlertProps) {
  return <FormAlert {...props} failed />;
}

/** The alert a form shows when a save went through: in green, a status. */
export function FormSaved(props: FormAlertProps) {
  return <FormAlert {...props} failed={false} />;
}

/**
 * A form's failed save: `fail(error, fallback)` says why (`failureText`), `clear()` forgets it as
 * the form is sent again, and `alert` is its dismissible FormFailure, or nothing.
 */
export function useFormFailure() {
  const [failure, setFailure] = useState<string | null>(null);
  const clear = () => setFailure(null);
  return {
    failure,
    setFailure,
    fail: (error: unknown, fallback: string) => setFailure(failureText(error, fallback)),
    clear,
    alert: failure ? <FormFailure onDismiss={clear}>{failure}</FormFailure> : null,
  };
}

/**
 * The buttons that end a form or a question in a dialog: Cancel, and the button named
 * `submitLabel`, which submits the form (or, with `onConfirm`, does what the dialog asks) and spins
 * while `saving` (Cancel waits meanwhile).
 */
export function FormActions({
  submitLabel,
  onCancel,
  onConfirm,
  saving,
  color,
  disabled = false,
}: {
  submitLabel: ReactNode;
  onCancel: () => void;
  onConfirm?: () => void;
  saving: boolean;
  /** The button's colour: red for what cannot be undone. */
  color?: MantineColor | undefined;
  disabled?: boolean;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={saving}>
        <Trans>Cancel</Trans>
      </Button>
      <Button type={onConfirm ? 'button' : 'submit'} onClick={onConfirm} loading={saving} color={color} disabled={disabled}>
        {submitLabel}
      </Button>
    </Group>
  );
}

/**
 * A text field's value and its change handler, for a field kept in `useState`:
 * `<TextInput {...bindValue(name, setName)} />`.
 */
export function bindValue(value: string, setValue: (value: string) => void) {
  return {
    value,
    onChange: (event: { currentTarget: { value: string } }) => setValue(event.currentTarget.value),
  };
}

/**
 * A button (drawn by `children`, given the id to put in its `aria-describedby`) and, under it,
 * why its last try failed: in the error colour, said at once to screen readers.
 */
export function ButtonWithFailure({
  failure,
  children,
}: {
  failure: string | null;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const errorId = useId();
  return (
    <Stack gap={4} align="flex-end">
      {children(failure ? errorId : undefined)}
      {failure && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert" id={errorId}>
          {failure}
        </Text>
      )}
    </Stack>
  );
}
