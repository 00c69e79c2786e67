import { useLingui } from '@lingui/react/macro';
import { Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useState } from 'react';
import { useFormState, useWatch } from 'react-hook-form';
import { PHOTO_MAX_BYTES, PHOTO_SIZE_MESSAGE, PHOTO_TYPES } from '../../../../shared/schemas/profiles';
import { serverText } from '../../../i18n/server-text';
import type { ProfileForm } from './profile-form';

/** A file larger than this is not even read: it is refused at once (the limit itself is 2 MB). */
const READ_LIMIT_BYTES = 10 * PHOTO_MAX_BYTES;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * The photo upload beside the image URL. The file becomes the form's `photo` (a
 * data URL), checked by the same schema as on the server, so a wrong type or a file over 2 MB gets
 * the server's message before anything is sent. `currentPhotoUrl` is the profile's photo when
 * editing: it can be removed (`photo` null) or replaced; leaving the field alone keeps it.
 */
export function PhotoField({
  form,
  idPrefix,
  currentPhotoUrl,
  onPicked,
}: {
  form: ProfileForm;
  idPrefix: string;
  currentPhotoUrl?: string | null | undefined;
  /** Called when a file is picked, e.g. to fill the image description. */
  onPicked?: () => void;
}) {
  const { t } = useLingui();
  const { setValue, setError, clearErrors, control } = form;
  const photo = useWatch({ control, name: 'photo' });
  const { errors } = useFormState({ control, name: 'photo' });
  const [file, setFile] = useState<File | null>(null);

  const pick = async (picked: File | null) => {
    clearErrors('photo');
    setFile(picked);
    if (!picked) {
      setValue('photo', undefined, { shouldDirty: true, shouldValidate: true });
      return;
    }
    if (picked.size > READ_LIMIT_BYTES) {
      setValue('photo', undefined, { shouldDirty: true });
      setError('photo', { type: 'size', message: PHOTO_SIZE_MESSAGE });
      return;
    }
    try {
      setValue('photo', await readAsDataUrl(picked), { shouldDirty: true, shouldValidate: true });
      onPicked?.();
    } catch {
      setValue('photo', undefined, { shouldDirty: true });
      setError('photo', { type: 'read', message: t`The file could not be read. Please choose it again.` });
    }
  };

  const removing = currentPhotoUrl && photo === null;
  return (
    <Stack gap={4}>
      <FileInput
        id={`${idPrefix}-photo`}
        label={t`Upload a photo`}
        description={t`PNG, JPEG or WebP, up to 2 MB; shown instead of the image URL`}
        accept={PHOTO_TYPES.join(',')}
        leftSection={<IconPhotoUp size={16} aria-hidden />}
        clearable
        clearButtonProps={{ 'aria-label': t`Clear the chosen photo` }}
        // After a successful registration the form is empty again, and so is this field.
        value={photo ? file : null}
        onChange={(picked) => void pick(picked)}
        error={serverText(errors.photo?.message)}
      />
      {currentPhotoUrl && !photo && (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            {removing ? t`The photo will be removed when you save.` : t`This profile has an uploaded photo.`}
          </Text>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setValue('photo', removing ? undefined : null, { shouldDirty: true, shouldValidate: true })}
          >
            {removing ? t`Keep photo` : t`Remove photo`}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
