/**
 * Chat, messaging and e-mail services (Slack's tokens are in builtin.ts): webhook URLs that are
 * credentials by themselves, bot tokens, and the API keys of Twilio, SendGrid, Brevo, Mailgun,
 * Mailchimp and the services gitleaks only recognises next to their name.
 */
import { isSnowflakeBase64 } from '../checks.js';
import { define, labelled, notAfter, token } from '../define.js';
import type { Detector } from '../types.js';
import { isPlaceholderToken, looksRandom } from '../validators.js';

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const notFake = (entity: string) => (v: string) => (isPlaceholderToken(v) ? null : entity);

export function messagingDetectors(): Detector[] {
  return [
    // The path after /services/ (T.../B.../secret) is the credential; the host stays readable.
    define({
      name: 'slack_webhook_url',
      entity: 'webhook_url',
      category: 'secret',
      confidence: 0.99,
      pattern: String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{30,200})(?![A-Za-z0-9+/_-])`,
      flags: 'i',
      hints: ['hooks.slack.com/'],
      group: 1,
      minLength: 46,
      validate: notFake('webhook_url'),
    }),
    define({
      name: 'discord_webhook_url',
      entity: 'webhook_url',
      category: 'secret',
      confidence: 0.99,
      pattern: String.raw`discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d{17,20}/([A-Za-z0-9_-]{60,72})(?![A-Za-z0-9_-])`,
      flags: 'i',
      hints: ['discord.com/api/', 'discordapp.com/api/'],
      group: 1,
      minLength: 100,
      validate: notFake('webhook_url'),
    }),
    // Incoming webhooks on *.webhook.office.com (and the older outlook.office.com): the path
    // holds the tenant, the connector and its secret.
    define({
      name: 'teams_webhook_url',
      entity: 'webhook_url',
      category: 'secret',
      confidence: 0.95,
      pattern: String.raw`(?:webhook|outlook)\.office(?:365)?\.com/webhook(?:b2)?/(${GUID}@${GUID}/IncomingWebhook/[A-Za-z0-9]{32}/${GUID}(?:/[A-Za-z0-9_-]{20,80})?)(?![A-Za-z0-9/_-])`,
      flags: 'i',
      hints: ['.office.com/webhook', '.office365.com/webhook'],
      group: 1,
      minLength: 150,
    }),
    // Three base64url parts: the bot's user id, a timestamp and an HMAC. The first must decode
    // to a Discord id, or the whole must at least look random.
    define({
      name: 'discord_bot_token',
      entity: 'api_token',
      category: 'secret',
      confidence: 0.9,
      pattern: String.raw`${notAfter('A-Za-z0-9_.-')}[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_.-])`,
      // No hint: its only literal is `.`, which nearly every string of a cloud result holds;
      // it runs on strings of 59 characters or more, and fails fast where no M, N or O starts.
      minLength: 59,
      validate: (v) => {
        const first = v.slice(0, v.indexOf('.'));
        return isSnowflakeBase64(first) || looksRandom(v.replace(/[._-]/g, '')) ? 'api_token' : null;
      },
    }),
    labelled({
      name: 'discord_client_secret',
      keywords: ['discord'],
      value: '[a-f0-9]{64}|[a-z0-9=_-]{32}',
      minLength: 40,
    }),
    // `<bot id>:AA<33>`, on its own: the shape is distinctive enough without a label. Bot API
    // URLs put it right after `bot` (`/bot123456:AA.../sendMessage`).
    define({
      name: 'telegram_bot_token',
      entity: 'api_token',
      category: 'secret',
      confidence: 0.95,
      pattern: String.raw`(?<![0-9:])\d{6,12}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`,
      hints: [':aa'],
      minLength: 42,
      validate: (v) => (isPlaceholderToken(v.slice(v.indexOf(':') + 3)) ? null : 'api_token'),
    }),
    // Account SIDs (AC) and API key SIDs (SK) have a fixed shape; the auth token only a label.
    token({
      name: 'twilio_key',
      prefix: 'AC|SK',
      body: '[0-9a-fA-F]{32}',
      hints: ['ac', 'sk'],
      minLength: 34,
    }),
    labelled({
      name: 'twilio_auth_token',
      keywords: ['twilio'],
      value: '[a-f0-9]{32}',
      minLength: 38,
    }),
    token({
      name: 'sendgrid_api_key',
      prefix: String.raw`SG\.`,
      body: String.raw`[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`,
      hints: ['sg.'],
      minLength: 69,
    }),
    token({
      name: 'brevo_api_key',
      prefix: 'xkeysib-|xsmtpsib-',
      body: '[a-f0-9]{64}-[A-Za-z0-9]{16}',
      hints: ['xkeysib-', 'xsmtpsib-'],
      minLength: 89,
    }),
    labelled({
      name: 'mailgun_key',
      keywords: ['mailgun', 'mg_api', 'mg_key'],
      value: '(?:key-|pubkey-)[a-f0-9]{32}|[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}',
      minLength: 40,
    }),
    token({
      name: 'mailchimp_api_key',
      prefix: '',
      body: String.raw`[a-f0-9]{32}-us\d{1,2}`,
      hints: ['-us'],
      minLength: 35,
    }),
    labelled({
      name: 'messaging_service_key_labelled',
      keywords: [
        'mattermost',
        'message_?bird',
        'intercom',
        'sendbird',
        'zendesk',
        'pusher',
        'vonage',
        'nexmo',
      ],
      hints: [
        'mattermost',
        'messagebird',
        'message_bird',
        'intercom',
        'sendbird',
        'zendesk',
        'pusher',
        'vonage',
        'nexmo',
      ],
      value: '[a-z0-9]{25,26}|[a-f0-9]{40}|[a-z0-9=_-]{60}|[a-z0-9]{40}',
      minLength: 30,
    }),
  ];
}
