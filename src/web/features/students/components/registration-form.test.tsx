import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES, PHOTO_SIZE_MESSAGE, PHOTO_TYPE_MESSAGE } from '../../../../shared/schemas/profiles';
import { putStudents } from '../../../../server/modules/roster/service';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { RegisterPage } from '../pages/register-page';

const STUDENT_EMAIL = 'register-student@uni.edu';
const STUDENT_PIN = '22B81A0577';

// Each test starts signed out, with its own cookie jar.
const server = startTestServer({
  jarPerTest: true,
  seed: async ({ signIn, database: { db } }) => {
    await signIn('student', { email: STUDENT_EMAIL, pin: STUDENT_PIN });
    await putStudents(db, [
      { pin: '22B81A0599', name: 'Asha Rao', className: 'CSE4' },
      { pin: '22B81A0598', name: 'Ravi Teja', className: 'CSE4' },
      { pin: '22B81A0597', name: 'Kiran Das', className: 'CSE4' },
    ]);
  },
});

function renderRegister() {
  renderRoutes([{ path: '/register', element: <RegisterPage /> }], '/register');
  return screen.findByRole('form', { name: 'Student registration' });
}

const box = (form: HTMLElement, name: string) => within(form).getByRole('textbox', { name });

describe('Registration', () => {
  it('has every field of the specification, URL inputs for links, and the image hint', async () => {
    const form = await renderRegister();
    expect(screen.getByRole('heading', { level: 1, name: 'Student Registration' })).toBeInTheDocument();
    for (const label of ['Full Name', 'Designation/Branch', 'PIN Number', 'Image Description (Alt Text)']) {
      expect(box(form, label)).toBeInTheDocument();
    }
    for (const label of ['Profile Image URL', 'LinkedIn URL', 'GitHub URL', 'LeetCode URL', 'Resume Link', 'Portfolio Link']) {
      expect(box(form, label)).toHaveAttribute('type', 'url');
    }
    expect(within(form).getByText('Leave empty to use default avatar')).toBeInTheDocument();
    expect(box(form, 'Full Name')).toBeRequired();
    expect(within(form).getByRole('button', { name: 'Register' })).toBeDisabled();
  });

  it('asks for the three required fields with the specification’s message', async () => {
    const user = userEvent.setup();
    const form = await renderRegister();
    await user.click(box(form, 'Full Name'));
    await user.tab();
    expect(await within(form).findByText('Name, Designation, and PIN Number are required')).toBeInTheDocument();
    expect(box(form, 'Full Name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByRole('button', { name: 'Register' })).toBeDisabled();
  });

  it('shows a live preview once a field is filled, with placeholders and only the filled links', async () => {
    const user = userEvent.setup();
    const form = await renderRegister();
    expect(screen.queryByRole('heading', { name: 'Profile Preview' })).not.toBeInTheDocument();

    await user.type(box(form, 'Designation/Branch'), 'B.Tech CSE');
    const preview = (await screen.findByRole('heading', { name: 'Profile Preview' })).closest('section')!;
    expect(within(preview).getByRole('heading', { name: 'Student Name' })).toBeInTheDocument();
    expect(within(preview).getByText('B.Tech CSE')).toBeInTheDocument();
    expect(within(preview).queryByRole('link')).not.toBeInTheDocument();

    await user.type(box(form, 'Full Name'), 'Asha Rao');
    await user.type(box(form, 'PIN Number'), '22B81A0501');
    await user.type(box(form, 'LinkedIn URL'), 'https://www.linkedin.com/in/asha');
    await user.type(box(form, 'GitHub URL'), 'javascript:alert(1)');
    await user.tab();
    expect(within(preview).getByRole('heading', { name: 'Asha Rao' })).toBeInTheDocument();
    expect(within(preview).getByText('PIN: 22B81A0501')).toBeInTheDocument();
    const linkedin = within(preview).getByRole('link', { name: /LinkedIn/ });
    expect(linkedin).toHaveAttribute('href', 'https://www.linkedin.com/in/asha');
    expect(linkedin).toHaveAttribute('target', '_blank');
    expect(linkedin).toHaveAttribute('rel', 'noopener noreferrer');
    // A link that is not http(s) never becomes clickable, and the field says why.
    expect(within(preview).queryByRole('link', { name: /GitHub/ })).not.toBeInTheDocument();
    expect(await within(form).findByText('GitHub URL must be a link starting with http:// or https://')).toBeInTheDocument();
  });

  it('fills the alt text from the name when an image URL is typed, and falls back to the default avatar', async () => {
    const user = userEvent.setup();
    const form = await renderRegister();
    await user.type(box(form, 'Profile Image URL'), 'h');
    expect(box(form, 'Image Description (Alt Text)')).toHaveValue('Profile image of student');

    await user.clear(box(form, 'Image Description (Alt Text)'));
    await user.type(box(form, 'Full Name'), 'Ravi Teja');
    await user.type(box(form, 'Profile Image URL'), 'ttps://img.example.edu/ravi.png');
    expect(box(form, 'Image Description (Alt Text)')).toHaveValue('Profile image of Ravi Teja');

    // A description the user wrote is kept.
    await user.clear(box(form, 'Image Description (Alt Text)'));
    await user.type(box(form, 'Image Description (Alt Text)'), 'Ravi at the library');
    await user.type(box(form, 'Profile Image URL'), '?v=2');
    expect(box(form, 'Image Description (Alt Text)')).toHaveValue('Ravi at the library');

    const image = await screen.findByRole('img', { name: 'Ravi at the library' });
    await waitFor(() => expect(screen.getByRole('img', { name: 'Ravi at the library' })).toHaveAttribute('src', 'https://img.example.edu/ravi.png?v=2'));
    expect(image).toBeInTheDocument();
    // The image resets its failure when its address changes, in an effect that may still be pending
    // after the debounced preview showed the new address: the browser's error comes after it.
    await waitFor(() => {
      fireEvent.error(screen.getByRole('img', { name: 'Ravi at the library' }));
      expect(screen.getByRole('img', { name: 'Ravi at the library' })).toHaveAttribute('src', '/default-avatar.svg');
    });
  });

  it('saves, clears the form and says it waits for review; a duplicate PIN keeps the form with the server’s message', async () => {
    const user = userEvent.setup();
    const form = await renderRegister();
    const fill = async (name: string) => {
      await user.type(box(form, 'Full Name'), name);
      await user.type(box(form, 'Designation/Branch'), 'B.Tech CSE');
      await user.type(box(form, 'PIN Number'), '22B81A0599');
    };
    await fill('Asha Rao');
    await user.type(box(form, 'GitHub URL'), 'https://github.com/asha');
    const button = within(form).getByRole('button', { name: 'Register' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);

    const success = await within(form).findByRole('status');
    // The portal's 'not on the roster' message first, then the review note: the visitor was not signed in as the student.
    expect(success).toHaveTextContent(/^Registration Successful! Your profile has been saved\.\s*It will appear once faculty have reviewed it\.$/);
    expect(box(form, 'Full Name')).toHaveValue('');
    expect(box(form, 'PIN Number')).toHaveValue('');
    expect(box(form, 'GitHub URL')).toHaveValue('');
    expect(screen.queryByRole('heading', { name: 'Profile Preview' })).not.toBeInTheDocument();
    await user.click(within(success).getByRole('button', { name: 'Dismiss' }));
    expect(within(form).queryByRole('status')).not.toBeInTheDocument();

    await fill('Someone Else');
    await user.click(within(form).getByRole('button', { name: 'Register' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('User with this PIN already exists');
    expect(box(form, 'Full Name')).toHaveValue('Someone Else');
    expect(box(form, 'PIN Number')).toHaveValue('22B81A0599');
    expect(box(form, 'PIN Number')).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses a PIN that is not on the roster with the server’s message, on the PIN field', async () => {
    const user = userEvent.setup();
    const form = await renderRegister();
    await user.type(box(form, 'Full Name'), 'Nobody Known');
    await user.type(box(form, 'Designation/Branch'), 'B.Tech CSE');
    await user.type(box(form, 'PIN Number'), '99X99');
    await user.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This PIN Number is not on the roster');
    expect(box(form, 'PIN Number')).toHaveAttribute('aria-invalid', 'true');
    expect(box(form, 'Full Name')).toHaveValue('Nobody Known');
  });

  it('fills in a signed-in student’s PIN; their own profile is saved without review, another PIN is refused', async () => {
    await server.signIn(STUDENT_EMAIL, 'student');
    // A stranger got there first: the student's own registration replaces that pending profile.
    const stranger = await server.ctx.app.inject({ method: 'POST', url: '/api/registrations', payload: { pin: STUDENT_PIN, name: 'A Stranger', designation: 'Spam' } });
    expect(stranger.json()).toMatchObject({ status: 'pending' });
    const user = userEvent.setup();
    const form = await renderRegister();
    await waitFor(() => expect(box(form, 'PIN Number')).toHaveValue(STUDENT_PIN));

    await user.clear(box(form, 'PIN Number'));
    await user.type(box(form, 'PIN Number'), '22B81A0598');
    await user.type(box(form, 'Full Name'), 'Meera Iyer');
    await user.type(box(form, 'Designation/Branch'), 'B.Tech CSE');
    await user.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('You can register only your own PIN Number');
    expect(box(form, 'PIN Number')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(box(form, 'PIN Number'));
    await user.type(box(form, 'PIN Number'), STUDENT_PIN);
    await user.click(within(form).getByRole('button', { name: 'Register' }));
    const success = await within(form).findByRole('status');
    expect(success).toHaveTextContent(/^Registration Successful! Your profile has been saved\.$/);
    const mine = await (await fetch('/api/registrations')).json();
    expect(mine).toMatchObject([{ pin: STUDENT_PIN, name: 'Meera Iyer', status: 'approved' }]);
  });

  it('uploads a photo: previewed at once, sent with the registration, refused with a message when wrong', async () => {
    // The file chooser's accept list would hide a wrong file; people can still pick one through "All files".
    const user = userEvent.setup({ applyAccept: false });
    const form = await renderRegister();
    const chooser = form.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(chooser).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp');
    expect(within(form).getByText('PNG, JPEG or WebP, up to 2 MB; shown instead of the image URL')).toBeInTheDocument();

    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).gif().toBuffer();
    await user.upload(chooser, new File([new Uint8Array(gif)], 'anim.gif', { type: 'image/gif' }));
    expect(await within(form).findByText(PHOTO_TYPE_MESSAGE)).toBeInTheDocument();

    const big = new Uint8Array(PHOTO_MAX_BYTES + 1);
    await user.upload(chooser, new File([big], 'camera.jpg', { type: 'image/jpeg' }));
    expect(await within(form).findByText(PHOTO_SIZE_MESSAGE)).toBeInTheDocument();

    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2a6' } }).png().toBuffer();
    await user.upload(chooser, new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }));
    await waitFor(() => expect(within(form).queryByText(PHOTO_SIZE_MESSAGE)).not.toBeInTheDocument());
    // The picture is shown before anything is sent, and it gets a description like a typed URL.
    const preview = (await screen.findByRole('heading', { name: 'Profile Preview' })).closest('section')!;
    await waitFor(() => expect(within(preview).getByRole('img')).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/)));
    expect(box(form, 'Image Description (Alt Text)')).toHaveValue('Profile image of student');

    await user.type(box(form, 'Full Name'), 'Kiran Das');
    await user.type(box(form, 'Designation/Branch'), 'B.Tech CSE');
    await user.type(box(form, 'PIN Number'), '22B81A0597');
    await user.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Registration Successful!');
    expect(chooser.files).toHaveLength(0);

    const saved = await server.ctx.app.inject({ method: 'GET', url: '/api/registrations?status=pending', headers: { cookie: await server.ctx.signIn('faculty') } });
    const profile = (saved.json() as { pin: string; photoUrl: string | null }[]).find((p) => p.pin === '22B81A0597');
    expect(profile?.photoUrl).toMatch(/^\/api\/registrations\/.+\/photo\?v=/);
  });
});
