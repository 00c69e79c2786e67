import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useFormState } from 'react-hook-form';
import { REQUIRED_FIELDS_MESSAGE, type ProfileLinkField } from '../../../../shared/schemas/profiles';
import { serverText } from '../../../i18n/server-text';
import { PhotoField } from './photo-field';
import type { ProfileFieldName, ProfileForm } from './profile-form';

const LINK_FIELDS = ['linkedin', 'github', 'leetcode', 'resume', 'portfolio'] as const;

/** The links' labels (the shared rules' PROFILE_LINK_FIELDS, whose words the server's messages use), in the language shown. */
const LINK_LABELS: Record<ProfileLinkField, MessageDescriptor> = {
  imageUrl: msg`Profile Image URL`,
  linkedin: msg`LinkedIn URL`,
  github: msg`GitHub URL`,
  leetcode: msg`LeetCode URL`,
  resume: msg`Resume Link`,
  portfolio: msg`Portfolio Link`,
};

/** Whether a field's problem is the one shared by the three required fields (the rule's words, or the server's translated). */
function isRequiredMessage(message: string | undefined): boolean {
  return message === REQUIRED_FIELDS_MESSAGE || message === serverText(REQUIRED_FIELDS_MESSAGE);
}

/**
 * The fields of a profile as the registration screen lists them, for the registration form and the edit
 * dialog alike. `idPrefix` keeps ids unique when both are on one page; `pinReadOnly` is for a
 * student editing their own profile, whose PIN only staff may change.
 */
export function ProfileFields({
  form,
  idPrefix,
  pinReadOnly = false,
  currentPhotoUrl,
}: {
  form: ProfileForm;
  idPrefix: string;
  pinReadOnly?: boolean;
  /** The profile's uploaded photo, when editing one. */
  currentPhotoUrl?: string | null | undefined;
}) {
  const { t, i18n } = useLingui();
  const { register, getValues, setValue, control } = form;
  const { errors } = useFormState({ control });

  // The three required fields share one message: say it once, and mark each empty field red.
  const requiredMissing = (['name', 'designation', 'pin'] as const).some((field) => isRequiredMessage(errors[field]?.message));
  const fieldError = (field: ProfileFieldName): string | boolean | undefined => {
    const message = errors[field]?.message;
    if (!message) return undefined;
    return isRequiredMessage(message) ? true : serverText(message);
  };

  // a new image URL with no description gets one from the name ('Profile image of student'
  // without one); so does a new photo.
  const fillAltText = () => {
    if (!getValues('imageAlt')?.trim()) {
      const name = getValues('name')?.trim();
      setValue('imageAlt', name ? t`Profile image of ${name}` : t`Profile image of student`, { shouldDirty: true, shouldValidate: true });
    }
  };

  return (
    <Stack gap="sm">
      <TextInput
        id={`${idPrefix}-name`}
        label={t`Full Name`}
        required
        autoComplete="name"
        error={fieldError('name')}
        {...register('name')}
      />
      <TextInput
        id={`${idPrefix}-designation`}
        label={t`Designation/Branch`}
        required
        placeholder={t`e.g. B.Tech CSE`}
        error={fieldError('designation')}
        {...register('designation')}
      />
      <TextInput
        id={`${idPrefix}-pin`}
        label={t`PIN Number`}
        required
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder={t`e.g. 23A51A05301`}
        readOnly={pinReadOnly}
        description={pinReadOnly ? t`Only faculty can change the PIN Number.` : undefined}
        error={fieldError('pin')}
        {...register('pin')}
      />
      {requiredMissing && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {serverText(REQUIRED_FIELDS_MESSAGE)}
        </Text>
      )}
      <TextInput
        id={`${idPrefix}-imageUrl`}
        label={i18n._(LINK_LABELS.imageUrl)}
        description={t`Leave empty to use default avatar`}
        type="url"
        inputMode="url"
        placeholder="https://"
        error={fieldError('imageUrl')}
        {...register('imageUrl', { onChange: fillAltText })}
      />
      <PhotoField form={form} idPrefix={idPrefix} currentPhotoUrl={currentPhotoUrl} onPicked={fillAltText} />
      <TextInput
        id={`${idPrefix}-imageAlt`}
        label={t`Image Description (Alt Text)`}
        error={fieldError('imageAlt')}
        {...register('imageAlt')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        {LINK_FIELDS.map((field) => (
          <TextInput
            key={field}
            id={`${idPrefix}-${field}`}
            label={i18n._(LINK_LABELS[field])}
            type="url"
            inputMode="url"
            placeholder="https://"
            error={fieldError(field)}
            {...register(field)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
