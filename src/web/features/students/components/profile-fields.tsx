import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useFormState } from 'react-hook-form';
import { PROFILE_LINK_FIELDS, REQUIRED_FIELDS_MESSAGE } from '../../../../shared/schemas/profiles';
import { PhotoField } from './photo-field';
import type { ProfileFieldName, ProfileForm } from './profile-form';

const LINK_FIELDS = ['linkedin', 'github', 'leetcode', 'resume', 'portfolio'] as const;

/** 'Profile image of {name}', name defaulting to 'student'. */
export function defaultAltText(name: string | null | undefined): string {
  return `Profile image of ${name?.trim() || 'student'}`;
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
  const { register, getValues, setValue, control } = form;
  const { errors } = useFormState({ control });

  // The three required fields share one message: say it once, and mark each empty field red.
  const requiredMissing = (['name', 'designation', 'pin'] as const).some((field) => errors[field]?.message === REQUIRED_FIELDS_MESSAGE);
  const fieldError = (field: ProfileFieldName): string | boolean | undefined => {
    const message = errors[field]?.message;
    if (!message) return undefined;
    return message === REQUIRED_FIELDS_MESSAGE ? true : message;
  };

  // a new image URL with no description gets one from the name; so does a new photo.
  const fillAltText = () => {
    if (!getValues('imageAlt')?.trim()) {
      setValue('imageAlt', defaultAltText(getValues('name')), { shouldDirty: true, shouldValidate: true });
    }
  };

  return (
    <Stack gap="sm">
      <TextInput
        id={`${idPrefix}-name`}
        label="Full Name"
        required
        autoComplete="name"
        error={fieldError('name')}
        {...register('name')}
      />
      <TextInput
        id={`${idPrefix}-designation`}
        label="Designation/Branch"
        required
        placeholder="e.g. B.Tech CSE"
        error={fieldError('designation')}
        {...register('designation')}
      />
      <TextInput
        id={`${idPrefix}-pin`}
        label="PIN Number"
        required
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="e.g. 23A51A05301"
        readOnly={pinReadOnly}
        description={pinReadOnly ? 'Only faculty can change the PIN Number.' : undefined}
        error={fieldError('pin')}
        {...register('pin')}
      />
      {requiredMissing && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {REQUIRED_FIELDS_MESSAGE}
        </Text>
      )}
      <TextInput
        id={`${idPrefix}-imageUrl`}
        label={PROFILE_LINK_FIELDS.imageUrl}
        description="Leave empty to use default avatar"
        type="url"
        inputMode="url"
        placeholder="https://"
        error={fieldError('imageUrl')}
        {...register('imageUrl', { onChange: fillAltText })}
      />
      <PhotoField form={form} idPrefix={idPrefix} currentPhotoUrl={currentPhotoUrl} onPicked={fillAltText} />
      <TextInput
        id={`${idPrefix}-imageAlt`}
        label="Image Description (Alt Text)"
        error={fieldError('imageAlt')}
        {...register('imageAlt')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        {LINK_FIELDS.map((field) => (
          <TextInput
            key={field}
            id={`${idPrefix}-${field}`}
            label={PROFILE_LINK_FIELDS[field]}
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
