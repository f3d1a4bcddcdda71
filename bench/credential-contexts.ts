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
  'postgresql://app:{}@db.example.com:5432/app',
  'git clone https://me:{}@github.com/org/repo.git',
  'Server=db;Database=app;User Id=sa;Password={};',
  'jdbc:mysql://db:3306/app?user=me&password={}',
  'conn = psycopg2.connect(host="db", user="me", password="{}")',
  '\tPassword: "{}",',
  'redis-cli -h cache -a {} ping',
  'PGPASSWORD={} psql -h db -U app',
  'secret_key = "{}"',
  'export GITHUB_TOKEN={}',
  'x-api-key: {}',
  '$ cat .env\nNODE_ENV=production\nSECRET_KEY={}\nPORT=3000\n',
  '<settings><servers><server><id>repo</id><password>{}</password></server></servers></settings>',
  '$password = "{}";',
  '$env:API_TOKEN = "{}"',
  'set DB_PASS={}',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA{}\n-----END RSA PRIVATE KEY-----',
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA{}\n-----END OPENSSH PRIVATE KEY-----',
  '[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = {}\n',
  'auth_token: {}',
  // prose, headers of any X-…-Key/-Token name, cookies on the command line, a credential after a label on its line
  'my password is {}',
  'the password is {} for staging',
  'pw: {}',
  'passphrase is {}',
  'curl -H "X-Api-Key: {}" https://api.example.com',
  'X-Auth-Token: {}',
  "curl -H 'X-Shopify-Access-Token: {}' https://shop.example.com",
  'Api-Key: {}',
  'curl -b "sessionid={}" https://example.com',
  "curl --cookie 'sid={}; theme=dark' https://example.com",
  'Set-Cookie: sessionid={}; HttpOnly; Path=/',
  'cookie: Cookie: sessionid={}',
  'notes: aws_session_token = {}',
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
  'ERROR 1045 (28000): Access denied for user root@localhost (using password: YES)',
  'Access denied for user bob@localhost (using password: NO)',
  'password is required',
  'the password is incorrect, try again',
  'Your password is too short.',
  'the password was changed yesterday',
  'pwd: /home/dev/project',
  'X-Api-Key: ${API_KEY}',
  'X-Auth-Token: <token>',
  'X-Request-Id: 4f9a2b1c-77aa',
  'git checkout -b feature/login-form',
  "apiKey: params.litellmApiKey || 'not-required',",
];

/** Names of credentials, in the forms code uses; the look-alike templates are filled with each. */
const NAMES = ['password', 'DB_PASSWORD', 'apiKey', 'client_secret', 'token', 'secret', 'authToken', 'PGPASSWORD', 'passphrase', 'privateKey'];
/** Code around a credential's name that holds no credential (`{n}` the name, `{N}` its upper-snake form, `{k}` kebab). */
const LOOK_ALIKE_TEMPLATES = [
  '{n}: string',
  '{n}?: string;',
  '{n} = ""',
  '{n} = os.environ["{N}"]',
  '{n} = process.env.{N}',
  '{N}=${{N}}',
  '{n}: <your-{k}>',
  'const {n} = load{n}();',
  '{N}_MIN_LENGTH = 8',
  'if not {n}:',
  '{n} = None',
  '{n}: {{ .Values.{n} }}',
  'validate({n})',
  '{n} = request.form["{n}"]',
  '"{n}": "***"',
  '{n} = settings.{N}',
  'self.{n} = {n}',
  '{n}=$(cat /run/secrets/{k})',
  '{n}: z.string().min(8)',
  '--{k}-file /run/secrets/{k}',
];

const upperSnake = (n: string): string => n.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
const kebab = (n: string): string => upperSnake(n).toLowerCase().replaceAll('_', '-');

/** The fixed look-alikes and every template filled with every name: 230 texts that must stay as written. */
export function lookAlikes(): string[] {
  const filled = LOOK_ALIKE_TEMPLATES.flatMap((t) => NAMES.map((n) => t.replaceAll('{n}', n).replaceAll('{N}', upperSnake(n)).replaceAll('{k}', kebab(n))));
  return [...new Set([...LOOK_ALIKES, ...filled])];
}

/** The kind of value a sentence names: a password, a PIN, or a token or key. */
export type ProseKind = 'password' | 'pin' | 'token';

/** Credentials written in sentences, in several languages (`{}` where the value goes). */
export const PROSE_CONTEXTS: { text: string; kind: ProseKind }[] = [
  { text: 'the password for the build server is {}', kind: 'password' },
  { text: 'sign in as deploy / {} on the staging box', kind: 'password' },
  { text: 'the passphrase for the key is {}', kind: 'password' },
  { text: 'Our API key is {}', kind: 'token' },
  { text: 'my gitlab token is {}', kind: 'token' },
  { text: 'Das Passwort lautet {}', kind: 'password' },
  { text: 'パスワードは {} です', kind: 'password' },
  { text: 'ssh admin@host with password {}', kind: 'password' },
  { text: 'the passcode for the safe is {}', kind: 'pin' },
  { text: 'db password is {}', kind: 'password' },
  { text: 'my password is {}', kind: 'password' },
  { text: 'The root password on prod is now {}.', kind: 'password' },
  { text: 'I set the password to {} for now', kind: 'password' },
  { text: 'log in as admin/{}', kind: 'password' },
  { text: 'login: deploy / {}', kind: 'password' },
  { text: 'the wifi password: {}', kind: 'password' },
  { text: 'Password was "{}" on the old box', kind: 'password' },
  { text: 'enter the PIN {} at the door', kind: 'pin' },
  { text: 'my PIN is {}', kind: 'pin' },
  { text: 'the secret for the webhook is {}', kind: 'token' },
  { text: 'the access token is {}, it expires tomorrow', kind: 'token' },
  { text: 'Das Passwort für den Server ist {}', kind: 'password' },
  { text: 'Kennwort: {}', kind: 'password' },
  { text: 'le mot de passe est {}', kind: 'password' },
  { text: 'la contraseña es {}', kind: 'password' },
  { text: 'a senha é {}', kind: 'password' },
  { text: 'het wachtwoord is {}', kind: 'password' },
  { text: 'hasło to {}', kind: 'password' },
  { text: 'пароль: {}', kind: 'password' },
  { text: 'şifre {} olarak ayarlandı', kind: 'password' },
  { text: 'lösenordet är {}', kind: 'password' },
  { text: 'サーバーのパスワードは{}です', kind: 'password' },
  { text: '密码是{}', kind: 'password' },
  { text: '数据库密码：{}', kind: 'password' },
  { text: '비밀번호는 {}입니다', kind: 'password' },
  { text: 'la clé API est {}', kind: 'token' },
  { text: 'Der API-Schlüssel lautet {}', kind: 'token' },
];

/** Values of each kind, as people use them (deterministic). */
export function proseValues(kind: ProseKind, n: number): string[] {
  if (kind === 'password') return credentialValues(n).filter((v) => v.length >= 6);
  if (kind === 'pin') return Array.from({ length: n }, (_, i) => (i % 2 ? `${4417 + i * 37}` : `${4417 + i}-${9902 - i}-${3318 + i * 7}`));
  return Array.from({ length: n }, (_, i) => `${['tok', 'k9', 'Ab', 'z'][i % 4]}${(i * 7919 + 104729).toString(36)}${'Xq7Rw2pLm9Zt'.slice(i % 5)}${i}`);
}

/** Sentences about credentials that hold none: they must stay as written. */
const PROSE_LOOK_ALIKE_TEMPLATES = [
  '{w} reset flow',
  'the {w} expired',
  'the {w} is invalid',
  '{w} is required',
  'the {w} is incorrect, try again',
  'Your {w} is too short.',
  'the {w} was changed yesterday',
  '(using {w}: YES)',
  'the {w} count is 4096',
  'the {w} limit is 128000',
  'the {w} field is empty',
  'rotate the {w} every 90 days',
  'the {w} is stored in 1Password',
  'the {w} is in the .env file',
  'the {w} is set via the SECRET_KEY variable',
  'the {w} for the build server is in Vault',
  'the {w} is hashed with bcrypt',
  'the {w} is 12 characters long',
  'the {w} must be at least 8 characters',
  'the {w} is ${PASSWORD}',
  'the {w} is <your-password>',
  'enter your {w} to continue',
  'log in with {w} authentication',
  'the {w} is stored as SHA-256',
  'the {w} is read from process.env.APP_SECRET',
  'the {w} is {{ secrets.DEPLOY }}',
  'pin the dependency to 3.11.4',
  'the {w} is now optional',
  'the new {w} policy takes effect in 2027',
  'sign in as admin / guest',
];
const PROSE_WORDS = ['password', 'passphrase', 'passcode', 'PIN', 'token', 'API key', 'secret', 'Passwort', 'mot de passe', 'contraseña'];
const PROSE_LOOK_ALIKES = [
  'パスワードを忘れた場合はリセットしてください',
  'パスワードは必須です',
  '密码错误，请重试',
  '密码长度至少为 8 位',
  '비밀번호를 입력하세요',
  'Das Passwort ist falsch',
  'Das Passwort muss 12 Zeichen haben',
  'le mot de passe est trop court',
  'la contraseña es obligatoria',
  'const pw = await chromium.launch();',
  'await pw.goto(url)',
  'the token is a JWT signed with RS256',
  'token usage: 1,204 input, 380 output',
  'the tokenizer splits on whitespace',
  'npm run build -- --token-limit 4096',
];

/** Every prose look-alike: the templates filled with every word, and the fixed ones. */
export function proseLookAlikes(): string[] {
  return [...new Set([...PROSE_LOOK_ALIKE_TEMPLATES.flatMap((t) => PROSE_WORDS.map((w) => t.replaceAll('{w}', w))), ...PROSE_LOOK_ALIKES])];
}
