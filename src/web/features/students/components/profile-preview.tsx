import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useWatch } from 'react-hook-form';
import { ProfileCard } from '../../../components/student-record';
import type { ProfileForm } from './profile-form';

/**
 * The live 'Profile Preview': shown once a name, designation or image is filled,
 * with the specification's placeholders and a button only for each filled link.
 */
export function ProfilePreview({ form }: { form: ProfileForm }) {
  const { t } = useLingui();
  const values = useWatch({ control: form.control });
  // Wait for a pause in typing before loading the picture, instead of fetching every half-typed URL.
  const [imageUrl] = useDebouncedValue(values.imageUrl?.trim() ?? '', 400);
  const filled = !!(values.name?.trim() || values.designation?.trim() || values.imageUrl?.trim() || values.photo);
  if (!filled) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="profile-preview-heading">
      <Title order={2} fz="lg" id="profile-preview-heading">
        <Trans>Profile Preview</Trans>
      </Title>
      <ProfileCard
        name={values.name}
        designation={values.designation}
        pin={values.pin}
        photoUrl={values.photo}
        imageUrl={imageUrl}
        imageAlt={values.imageAlt}
        links={values}
        nameFallback={t`Student Name`}
        designationFallback={t`Designation/Branch`}
        headingLevel={3}
      />
      <Text size="xs" c="dimmed" ta="center">
        <Trans>This is how your card will look to faculty.</Trans>
      </Text>
    </Stack>
  );
}
