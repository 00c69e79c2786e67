import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_CONTACT } from '../../../../server/config';
import { contactMessages } from '../../../../server/db/schema';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { ContactPage } from '../pages/contact-page';

const server = startTestServer();

function renderContact() {
  return renderRoutes([{ path: '/contact-us', element: <ContactPage /> }], '/contact-us');
}

async function storedWithSubject(subject: string) {
  return server.ctx.database.db.select().from(contactMessages).where(eq(contactMessages.subject, subject));
}

function field(form: HTMLElement, label: RegExp) {
  return within(form).getByRole('textbox', { name: label });
}

async function fillValid(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, subject: string) {
  await user.type(field(form, /^Full Name/), 'Priya Sharma');
  await user.type(field(form, /^Email/), 'priya@example.com');
  await user.type(field(form, /^Phone Number/), '+91 98765 43210');
  await user.type(field(form, /^Subject/), subject);
  await user.type(field(form, /^Message/), 'When are the semester exams?');
}

describe('ContactPage', () => {
  it('shows the address, phone and e-mail blocks from the portal', async () => {
    renderContact();
    expect(await screen.findByText(DEMO_CONTACT.address)).toBeInTheDocument();
    const phone = screen.getByRole('link', { name: DEMO_CONTACT.phone });
    expect(phone).toHaveAttribute('href', 'tel:+914023456789');
    expect(screen.getByRole('link', { name: DEMO_CONTACT.email })).toHaveAttribute('href', `mailto:${DEMO_CONTACT.email}`);
    expect(screen.getByRole('heading', { name: 'Contact Us', level: 1 })).toBeInTheDocument();
  });

  it('names each missing or wrong field by the field and sends nothing', async () => {
    const user = userEvent.setup();
    const spy = vi.fn(server.fetch);
    vi.stubGlobal('fetch', spy);
    renderContact();
    const form = await screen.findByRole('form', { name: 'Contact us' });
    await user.click(within(form).getByRole('button', { name: 'Send Message' }));
    expect(await within(form).findByText('Full Name is required')).toBeInTheDocument();
    expect(within(form).getByText('Email is required')).toBeInTheDocument();
    expect(within(form).getByText('Subject is required')).toBeInTheDocument();
    expect(within(form).getByText('Message is required')).toBeInTheDocument();
    expect(field(form, /^Full Name/)).toHaveAccessibleDescription('Full Name is required');

    await user.type(field(form, /^Email/), 'priya@');
    await user.type(field(form, /^Phone Number/), 'call me');
    await user.tab();
    expect(await within(form).findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(within(form).getByText('Please enter a valid phone number')).toBeInTheDocument();
    expect(spy.mock.calls.filter(([url, init]) => String(url) === '/api/contact' && init?.method === 'POST')).toEqual([]);
    expect(screen.queryByText('Message sent successfully!')).not.toBeInTheDocument();
  });

  it('sends the message, shows the green result and clears the form', async () => {
    const user = userEvent.setup();
    renderContact();
    const form = await screen.findByRole('form', { name: 'Contact us' });
    await fillValid(user, form, 'Exam dates');
    await user.click(within(form).getByRole('button', { name: 'Send Message' }));

    const result = await screen.findByRole('status');
    expect(result).toHaveTextContent('Message sent successfully!');
    expect(field(form, /^Full Name/)).toHaveValue('');
    expect(field(form, /^Email/)).toHaveValue('');
    expect(field(form, /^Subject/)).toHaveValue('');
    expect(field(form, /^Message/)).toHaveValue('');
    const [row] = await storedWithSubject('Exam dates');
    expect(row).toMatchObject({ name: 'Priya Sharma', email: 'priya@example.com', phone: '+91 98765 43210' });
  });

  it('shows the red result and keeps what was typed when sending fails', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', (async (input, init) => {
      if (String(input) === '/api/contact' && init?.method === 'POST') {
        return new Response('{"message":"Something went wrong on the server. Please try again."}', { status: 500 });
      }
      return server.fetch(input, init);
    }) as typeof fetch);
    renderContact();
    const form = await screen.findByRole('form', { name: 'Contact us' });
    await fillValid(user, form, 'Library hours');
    await user.click(within(form).getByRole('button', { name: 'Send Message' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error sending message!');
    expect(alert).not.toHaveTextContent('Something went wrong');
    expect(field(form, /^Full Name/)).toHaveValue('Priya Sharma');
    expect(field(form, /^Subject/)).toHaveValue('Library hours');
    expect(field(form, /^Message/)).toHaveValue('When are the semester exams?');
    expect(within(form).getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it('says why when the visitor has sent too many messages', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', (async (input, init) => {
      if (String(input) === '/api/contact' && init?.method === 'POST') {
        return new Response('{"message":"Too many requests. Please wait a moment and try again."}', { status: 429 });
      }
      return server.fetch(input, init);
    }) as typeof fetch);
    renderContact();
    const form = await screen.findByRole('form', { name: 'Contact us' });
    await fillValid(user, form, 'Too many');
    await user.click(within(form).getByRole('button', { name: 'Send Message' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error sending message!');
    expect(alert).toHaveTextContent('Too many requests. Please wait a moment and try again.');
  });

  it('disables Send Message while the message is on its way', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.stubGlobal('fetch', (async (input, init) => {
      if (String(input) === '/api/contact' && init?.method === 'POST') await gate;
      return server.fetch(input, init);
    }) as typeof fetch);
    renderContact();
    const form = await screen.findByRole('form', { name: 'Contact us' });
    await fillValid(user, form, 'Slow network');
    const button = within(form).getByRole('button', { name: 'Send Message' });
    await user.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByRole('status')).toHaveTextContent('Message sent successfully!');
    expect(button).toBeEnabled();
  });

  it('hides the robot trap from people and keyboards, and drops what a robot puts in it', async () => {
    const user = userEvent.setup();
    renderContact();
    const form = await screen.findByRole('form', { name: 'Contact us' });
    const trap = within(form).getByLabelText('Website');
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(within(form).queryByRole('textbox', { name: 'Website' })).not.toBeInTheDocument();

    await fillValid(user, form, 'Buy cheap pills');
    await user.type(trap, 'http://spam.example');
    await user.click(within(form).getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Message sent successfully!');
    expect(await storedWithSubject('Buy cheap pills')).toEqual([]);
  });
});
