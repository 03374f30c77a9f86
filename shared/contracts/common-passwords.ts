/**
 * The most used passwords of at least 8 characters, from public breach-frequency lists (shorter ones are
 * already refused by the length rule). Compared case-insensitively.
 */
const LIST = `password 12345678 123456789 1234567890 password1 iloveyou 11111111 00000000 qwertyuiop
sunshine princess football baseball superman 1qaz2wsx trustno1 qwerty123 welcome1 password123
abc12345 abcd1234 12341234 87654321 88888888 12344321 123123123 123456789a 1q2w3e4r 1q2w3e4r5t
1q2w3e4r5t6y qwertyui asdfghjk asdfghjkl zxcvbnm1 zxcvbnm123 qazwsxedc q1w2e3r4 q1w2e3r4t5 passw0rd
p@ssw0rd p@ssword pa55word password! password12 password1234 letmein1 letmein123 welcome123 welcome!
iloveyou1 iloveyou2 loveyou1 lovelove michelle jennifer jordan23 michael1 charlie1 computer
starwars whatever internet elephant dragon12 dragon123 monkey123 shadow12 master123 mustang1
football1 baseball1 basketball soccer12 hockey12 butterfly chocolate pokemon1 pokemon123 liverpool
chelsea1 arsenal1 manchester barcelona cowboys1 yankees1 steelers 123qweasd qweasdzxc 1qazxsw2
zaq12wsx zaq1zaq1 qwer1234 asdf1234 zxcv1234 1234qwer aaaaaaaa 12121212 11223344 123654789
147258369 159753456 987654321 9876543210 0987654321 01234567 123456780 111111111 1111111111
22222222 55555555 66666666 77777777 99999999 10203040 112233445566 123456123456 123abc123
abc123456 a1234567 a12345678 qwerty12 qwerty1234 qwerty12345 1qaz!qaz admin123 administrator
adminadmin rootroot changeme changeme1 default1 secret123 letmein! passpass testtest test1234
test12345 trustme1 freedom1 whatever1 nothing1 samsung1 google123 facebook1 linkedin1 myspace1
matrix123 hello123 hellohello sunshine1 princess1 superman1 batman123 spiderman ironman1
nicole12 jessica1 ashley12 anthony1 jonathan alexander victoria samantha isabella danielle
christine benjamin elizabeth jasmine1 fuckyou1 fuckyou123 iloveu123 babygirl1 sweetheart
angel123 angels12 blink182 eminem12 metallica nirvana1 rockyou1 12qwaszx qwaszx12 asdasdasd
qweqweqwe zxczxczxc 1234abcd abcdefgh abcdefg1 abcdef12 qwertyuiop123 iloveyou! onlyfans
onlyfans1 fansly123 creator1 subscribe 1234567a 7777777a 147852369 741852963 963852741
password01 password2 password3 pass1234 pass12345 mypassword mypassword1 newpassword
secret12 security1 welcome2 summer2024 summer2025 winter2024 winter2025 spring2025 autumn2025
january1 december1 monday123 123456aa aa123456 aa12345678 qq123456 11112222 13131313 1qa2ws3ed
pa$$w0rd p4ssw0rd passw0rd1 p@ssw0rd1 Password1! letmein2 master12 killer12 hunter12 hunter123
qwerty!@ 1q2w3e4r! !qaz2wsx zxcvbnmm 123456qwerty qwerty123456 987654321a lovely12 forever1`;

const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).map((p) => p.toLowerCase()));

export const isCommonPassword = (password: string) => COMMON_PASSWORDS.has(password.toLowerCase());
