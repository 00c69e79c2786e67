import { useLingui } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { isStudent } from '../../../../shared/access';
import { StudentSearch, usePinSearchParam } from '../../../components/student-record';
import { useMe } from '../../../lib/session';
import { CheckinCodeBox } from '../components/checkin-code-box';

/**
 * /faculty and /student (one screen). Faculty search any PIN, kept in the URL.
 * A student sees their own record at once; the server refuses anyone else's.
 */
export function StudentSearchPage() {
  const { t } = useLingui();
  const me = useMe();
  const user = me.data;
  const [pinParam, setPinParam] = usePinSearchParam();
  // Clear must really clear for a student too, instead of falling back to their own PIN again.
  const [cleared, setCleared] = useState(false);
  const student = isStudent(user);
  const ownPin = student ? (user?.pin ?? '') : '';
  const pin = pinParam ?? (cleared ? '' : ownPin);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{student ? t`My Attendance` : t`Student Attendance`}</Title>
        <Text c="dimmed">
          {student
            ? t`Your profile, attendance summary and history. Students can see only their own record.`
            : t`Search a student by PIN to see their profile, attendance summary and history.`}
        </Text>
      </Stack>
      {student && <CheckinCodeBox />}
      <StudentSearch
        pin={pin}
        onSearch={(next) => {
          setCleared(false);
          setPinParam(next);
        }}
        onClear={() => {
          setCleared(true);
          setPinParam(null);
        }}
        idleText={student ? t`Enter your PIN to see your attendance.` : undefined}
      />
    </Stack>
  );
}

export default StudentSearchPage;
