/**
 * The labelled set of the privacy issue: credential contexts (a `{}` where the value goes), values people use, and
 * look-alikes that are code and must stay. Shared by the unit test and `npm run masking`.
 */

/** Each context with a `{}` where the value goes; the value must not survive masking. */
export const CONTEXTS = [
  'DB_PASSWORD={}',
  'export PGPASSWORD={}',
  'REDIS_PASS={}',
  '"password": "{}"',
  'password: "{}"',
  "password: '{}'",
  'db:\n  password: {}\n',
  '[database]\npassword = {}\n',
  'spring.datasource.password={}',
  'password = "{}"',
  'const apiKey = "{}";',
  'clientSecret: "{}",',
  'password := "{}"',
  "'password' => '{}'",
  'String password = "{}";',
  'Authorization: Bearer {}',
  'Authorization: Basic {}',
  'Proxy-Authorization: Token {}',
  "curl -H 'Authorization: Bearer {}' https://api.example.com",
  'Cookie: session={}',
  'Set-Cookie: sid={}; Path=/; HttpOnly',
  'mysql -u root -p{} mydb',
  'psql --password={} -h db',
  'mytool --password {} --verbose',
  'curl -u admin:{} https://example.com',
  'docker login -u me -p {} registry.example.com',
  'sshpass -p {} ssh host',
  'machine api.example.com login me password {}',
  'aws_secret_access_key = {}',
  'aws_session_token = {}',
  'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {}\n',
  'client_secret={}',
  '{\\"user\\": \\"me\\", \\"password\\": \\"{}\\"}',
];

/** Values people use: short, low-entropy, phrases, symbols, opaque tokens. */
export function credentialValues(n: number): string[] {
  const words = ['hunter', 'correct', 'horse', 'battery', 'staple', 'dragon', 'monkey', 'letmein', 'summer', 'qwerty'];
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const w = words[i % words.length];
    const forms = [`${w}${i}`, `${w}${w}${i % 10}`, `${w.toUpperCase()}!${i}x`, `S3cr3t_${w}_${i}`, `${w}-${i}-${w.slice(0, 3)}`, `tok${i}${w}Zq9xYw2`];
    out.push(forms[i % forms.length]);
  }
  return out;
}

/** Code and placeholders that look like credentials and are not: they must stay as written. */
export const LOOK_ALIKES = [
  'password: string',
  'password?: string;',
  'def login(password: str) -> bool:',
  'password = ""',
  "password: '***'",
  'password: <your-password>',
  'DB_PASSWORD=${DB_PASSWORD}',
  'DB_PASSWORD=$DB_PASSWORD',
  'password = process.env.DB_PASSWORD',
  'password = os.environ["DB_PASSWORD"]',
  'password = os.getenv("DB_PASSWORD")',
  'PASSWORD_MIN_LENGTH = 8',
  'const password = getPassword();',
  'password_field = form.password_field',
  'echo "$TOKEN" | docker login --password-stdin',
  'password_hash = "$2b$12$KIXQJHv4mB5tL1yQ0xw1eO"',
  'passwordHash: hashed,',
  'token: ${{ secrets.GITHUB_TOKEN }}',
  'max_tokens = 1000',
  'bypass = true',
  'password = user.password',
  'password = new_password',
  'secret_name = "prod/db"',
  'PWD=/home/dev/project',
  'Authorization: Bearer <token>',
  'Authorization: Bearer $TOKEN',
  'api_key = None',
  'password: {{ .Values.password }}',
  'mysql -u root -p mydb',
  'token_count = 42',
];
