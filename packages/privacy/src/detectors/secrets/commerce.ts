/**
 * Payment and commerce providers (Stripe's keys are in builtin.ts): Square, Shopify, PayPal
 * Braintree, Flutterwave, Duffel, EasyPost, Shippo, Plaid, and the exchanges and payment
 * services gitleaks only recognises next to their name.
 */
import { labelled, token } from '../define.js';
import type { Detector } from '../types.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function commerceDetectors(): Detector[] {
  return [
    token({
      name: 'square_token',
      prefix: 'EAAA|sq0atp-|sq0csp-',
      body: '[A-Za-z0-9_-]{22,60}',
      hints: ['eaaa', 'sq0atp-', 'sq0csp-'],
      minLength: 26,
    }),
    token({
      name: 'shopify_token',
      prefix: 'shp(?:at|ca|pa|ss)_',
      body: '[a-fA-F0-9]{32}',
      hints: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
      minLength: 38,
    }),
    token({
      name: 'braintree_token',
      prefix: String.raw`access_token\$(?:production|sandbox)\$`,
      body: String.raw`[0-9a-z]{16}\$[0-9a-f]{32}`,
      hints: ['access_token$'],
      minLength: 66,
    }),
    token({
      name: 'flutterwave_key',
      prefix: 'FLW(?:SECK|PUBK)(?:_TEST)?-|FLWSECK_TEST',
      body: '[a-h0-9]{32}-X|[a-h0-9]{12}',
      hints: ['flwseck', 'flwpubk'],
      minLength: 23,
    }),
    token({
      name: 'duffel_token',
      prefix: 'duffel_(?:test|live)_',
      body: '[A-Za-z0-9_=-]{43}',
      hints: ['duffel_test_', 'duffel_live_'],
      minLength: 55,
    }),
    token({
      name: 'easypost_token',
      prefix: 'EZ[AT]K',
      body: '[A-Za-z0-9]{54}',
      hints: ['ezak', 'eztk'],
      minLength: 58,
    }),
    token({
      name: 'shippo_token',
      prefix: 'shippo_(?:live|test)_',
      body: '[a-fA-F0-9]{40}',
      hints: ['shippo_live_', 'shippo_test_'],
      minLength: 52,
    }),
    token({
      name: 'plaid_access_token',
      prefix: 'access-(?:sandbox|development|production)-',
      body: UUID,
      hints: ['access-sandbox-', 'access-development-', 'access-production-'],
      minLength: 51,
    }),
    labelled({
      name: 'payment_service_key_labelled',
      keywords: [
        'plaid',
        'gocardless',
        'coinbase',
        'kraken',
        'kucoin',
        'bittrex',
        'lob',
        'finicity',
        'razorpay',
        'paystack',
        'adyen',
      ],
      value:
        '(?:live|test)_[a-f0-9]{35}|(?:test|live)_pub_[a-f0-9]{31}|live_[a-z0-9_=-]{40}|[a-z0-9]{24}|[a-z0-9]{30}|[a-f0-9]{32}|[a-z0-9_-]{64}|[a-z0-9/=_+-]{80,90}',
      minLength: 28,
    }),
  ];
}
