/** Secret-shaped values for the masking tests. */

// Built at run time so that no complete secret-shaped literal sits in the repository.
export const fake = (prefix: string, body: string, n: number): string => prefix + body.repeat(Math.ceil(n / body.length)).slice(0, n);

export const SECRETS: Record<string, string> = {
  aws: fake('AKIA', 'Q3VZ7TXW', 16),
  github: fake('ghp_', 'aB3dE5fG7hJ9kL1mN2pQ', 36),
  gitlab: fake('glpat-', 'xY7zW2vU4tS6rQ8p', 20),
  slack: fake('xoxb-', '1234567890-abcdefGH', 40),
  stripe: fake('sk_live_', 'Zx9Yw8Vu7Ts6Rq5P', 24),
  openai: fake('sk-proj-', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8', 60),
  anthropic: fake('sk-ant-api03-', 'Qw1Er2Ty3Ui4Op5As6', 90),
  google: fake('AIza', 'Sy1Bc2De3Fg4Hi5Jk6Lm7No8Pq9', 35),
  npm: fake('npm_', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7', 36),
  sendgrid: `SG.${fake('', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8', 22)}.${fake('', 'Qr9St8Uv7Wx6Yz5', 43)}`,
  shopify: fake('shpat_', '0a1b2c3d4e5f6789', 32),
  linear: fake('lin_api_', 'Zy9Xw8Vu7Ts6Rq5', 40),
  digitalocean: fake('dop_v1_', '0123456789abcdef', 64),
  vault: fake('hvs.', 'CAESIJ1k2L3m4N5o6P7q', 95),
  telegram: `123456789:AA${fake('', 'Hn3Kp9Qw2Ex7Rt5Yu', 33)}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.${fake('eyJ', 'zdWIiOiIxMjM0NTY3ODkwIn0', 30)}.${fake('', 'SflKxwRJSMeKKF2QT4fwpM', 43)}`,
};
