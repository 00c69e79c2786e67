import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Loader, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { CONTACT_FAILED_MESSAGE, CONTACT_SENT_MESSAGE, ContactFormSchema, HONEYPOT_FIELD, type ContactFormValues, type ContactInput } from '../../../../shared/schemas/contact';
import { FormFailure, FormSaved } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { ApiError, fieldErrorsOf } from '../../../lib/api-client';
import { useSendContactMessage } from '../api/send-contact-message';

const EMPTY: ContactFormValues = { name: '', email: '', phone: '', subject: '', message: '', [HONEYPOT_FIELD]: '' };

type Result = { kind: 'sent' } | { kind: 'failed'; detail: string | null };

const FIELDS = new Set<string>(['name', 'email', 'phone', 'subject', 'message']);

/** Puts the server's field errors by the fields, should they get past the form's own checks. */
function markServerErrors(form: UseFormReturn<ContactFormValues, unknown, ContactInput>, error: Error): void {
  for (const { field, message } of fieldErrorsOf(error)) {
    if (FIELDS.has(field)) form.setError(field as keyof ContactFormValues, { message });
  }
}

/** The specification's red line, plus the reason when it helps the visitor (wait, or check the connection). */
function failureDetail(error: Error): string | null {
  if (error instanceof ApiError && (error.status === 429 || error.status === 0)) return error.message;
  return null;
}

/** The contact form at /contact-us: cleared after a message is sent, kept as typed when sending fails. */
export function ContactForm() {
  const { t } = useLingui();
  const send = useSendContactMessage();
  const [result, setResult] = useState<Result | null>(null);
  const form = useForm<ContactFormValues, unknown, ContactInput>({
    resolver: zodResolver(ContactFormSchema),
    // Not on blur: an error appearing as the visitor leaves a field for the button would move the
    // button away from under the pointer, and the click would miss it.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: EMPTY,
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const sending = send.isPending;

  const submit = handleSubmit((values) => {
    setResult(null);
    send.mutate(values, {
      onSuccess: () => {
        form.reset(EMPTY);
        setResult({ kind: 'sent' });
      },
      onError: (error) => {
        markServerErrors(form, error);
        setResult({ kind: 'failed', detail: failureDetail(error) });
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t`Contact us`}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          <TextInput id="contact-name" label={t`Full Name`} autoComplete="name" required error={serverText(errors.name?.message)} {...register('name')} />
          <TextInput
            id="contact-email"
            label={t`Email`}
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            error={serverText(errors.email?.message)}
            {...register('email')}
          />
          <TextInput id="contact-phone" label={t`Phone Number`} type="tel" autoComplete="tel" error={serverText(errors.phone?.message)} {...register('phone')} />
          <TextInput id="contact-subject" label={t`Subject`} required error={serverText(errors.subject?.message)} {...register('subject')} />
        </SimpleGrid>
        <Textarea
          id="contact-message"
          label={t`Message`}
          required
          rows={6}
          resize="vertical"
          error={serverText(errors.message?.message)}
          {...register('message')}
        />
        {/* Robots fill in every field; people never see this one, and screen readers and the Tab key skip it. */}
        <div
          aria-hidden="true"
          style={{ position: 'absolute', left: '-10000px', top: 'auto', width: 1, height: 1, overflow: 'hidden' }}
        >
          <label htmlFor="contact-website">Website</label>
          <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...register(HONEYPOT_FIELD)} />
        </div>
        <Button
          type="submit"
          disabled={sending}
          aria-busy={sending}
          leftSection={sending ? <Loader size={16} color="gray" aria-hidden /> : undefined}
          style={{ alignSelf: 'flex-start' }}
        >
          <Trans>Send Message</Trans>
        </Button>
        <div aria-live="polite">
          {result?.kind === 'sent' && (
            <FormSaved>{serverText(CONTACT_SENT_MESSAGE)}</FormSaved>
          )}
          {result?.kind === 'failed' && (
            <FormFailure>
              <Text size="sm" fw={600}>
                {serverText(CONTACT_FAILED_MESSAGE)}
              </Text>
              {result.detail && <Text size="sm">{result.detail}</Text>}
            </FormFailure>
          )}
        </div>
      </Stack>
    </form>
  );
}
