package shellcmd

import "strings"

// The downloaders: curl 7.88 and GNU wget 1.21 option tables. curl reads
// long options only whole; wget takes any unique prefix.
var (
	curlOptions = &OptionTable{Short: "aE:K:C:b:c:d:qD:fF:P:GgIH:h:0ik46jlLMm:n:No:Z#xU:pQ:r:e:JORX:SsY:y:23t:z:1T:Bu:A:vVw:", Permute: true,
		Long: "abstract-unix-socket= alt-svc= anyauth append aws-sigv4= basic cacert= capath= cert= " +
			"cert-status cert-type= ciphers= compressed compressed-ssh config= connect-timeout= " +
			"connect-to= continue-at= cookie= cookie-jar= create-dirs create-file-mode= crlf " +
			"crlfile= curves= data= data-ascii= data-binary= data-raw= data-urlencode= delegation= " +
			"digest disable disable-eprt disable-epsv disallow-username-in-url dns-interface= " +
			"dns-ipv4-addr= dns-ipv6-addr= dns-servers= doh-cert-status doh-insecure doh-url= " +
			"dump-header= egd-file= engine= etag-compare= etag-save= expect100-timeout= fail " +
			"fail-early fail-with-body false-start form= form-escape form-string= ftp-account= " +
			"ftp-alternative-to-user= ftp-create-dirs ftp-method= ftp-pasv ftp-port= ftp-pret " +
			"ftp-skip-pasv-ip ftp-ssl-ccc ftp-ssl-ccc-mode= ftp-ssl-control get globoff " +
			"happy-eyeballs-timeout-ms= haproxy-protocol head header= help= hostpubmd5= " +
			"hostpubsha256= hsts= http0.9 http1.0 http1.1 http2 http2-prior-knowledge http3 " +
			"http3-only ignore-content-length include insecure interface= ipv4 ipv6 json= " +
			"junk-session-cookies keepalive-time= key= key-type= krb= libcurl= limit-rate= list-only " +
			"local-port= location location-trusted login-options= mail-auth= mail-from= mail-rcpt= " +
			"mail-rcpt-allowfails manual max-filesize= max-redirs= max-time= metalink negotiate " +
			"netrc netrc-file= netrc-optional next no-alpn no-buffer no-clobber no-keepalive no-npn " +
			"no-progress-meter no-sessionid noproxy= ntlm ntlm-wb oauth2-bearer= output= output-dir= " +
			"parallel parallel-immediate parallel-max= pass= path-as-is pinnedpubkey= post301 " +
			"post302 post303 preproxy progress-bar proto= proto-default= proto-redir= proxy " +
			"proxy-anyauth proxy-basic proxy-cacert= proxy-capath= proxy-cert= proxy-cert-type= " +
			"proxy-ciphers= proxy-crlfile= proxy-digest proxy-header= proxy-insecure proxy-key= " +
			"proxy-key-type= proxy-negotiate proxy-ntlm proxy-pass= proxy-pinnedpubkey= " +
			"proxy-service-name= proxy-ssl-allow-beast proxy-ssl-auto-client-cert " +
			"proxy-tls13-ciphers= proxy-tlsauthtype= proxy-tlspassword= proxy-tlsuser= proxy-tlsv1 " +
			"proxy-user= proxy1.0= proxytunnel pubkey= quote= random-file= range= rate= raw referer= " +
			"remote-header-name remote-name remote-name-all remote-time remove-on-error request= " +
			"request-target= resolve= retry= retry-all-errors retry-connrefused retry-delay= " +
			"retry-max-time= sasl-authzid= sasl-ir service-name= show-error silent socks4= socks4a= " +
			"socks5= socks5-basic socks5-gssapi socks5-gssapi-nec socks5-gssapi-service= " +
			"socks5-hostname= speed-limit= speed-time= ssl ssl-allow-beast ssl-auto-client-cert " +
			"ssl-no-revoke ssl-reqd ssl-revoke-best-effort sslv2 sslv3 stderr= styled-output " +
			"suppress-connect-headers tcp-fastopen tcp-nodelay telnet-option= tftp-blksize= " +
			"tftp-no-options time-cond= tls-max= tls13-ciphers= tlsauthtype= tlspassword= tlsuser= " +
			"tlsv1 tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3 tr-encoding trace= trace-ascii= trace-time " +
			"unix-socket= upload-file= url= url-query= use-ascii user= user-agent= verbose version " +
			"write-out= xattr"}
	wgetOptions = &OptionTable{Short: "Vhbe:o:a:dqvi:FB:t:O:cNST:w:Q:46xP:EU:rl:kKmpA:R:D:HLI:X:", Abbrev: true, Permute: true,
		Long: "version help background execute= output-file= append-output= debug quiet verbose " +
			"report-speed= input-file= force-html base= config= no-config rejected-log= tries= " +
			"retry-connrefused retry-on-http-error= output-document= no-netrc continue start-pos= " +
			"progress= show-progress timestamping no-if-modified-since no-use-server-timestamps " +
			"server-response spider timeout= dns-timeout= connect-timeout= read-timeout= wait= " +
			"waitretry= random-wait no-proxy quota= bind-address= limit-rate= no-dns-cache " +
			"restrict-file-names= ignore-case inet4-only inet6-only prefer-family= user= password= " +
			"ask-password use-askpass= no-iri local-encoding= remote-encoding= unlink xattr " +
			"force-directories protocol-directories directory-prefix= cut-dirs= http-user= " +
			"http-password= no-cache default-page= adjust-extension ignore-length header= " +
			"compression= max-redirect proxy-user= proxy-password= referer= save-headers user-agent= " +
			"no-http-keep-alive no-cookies load-cookies= save-cookies= keep-session-cookies " +
			"post-data= post-file= method= body-data= body-file= content-disposition " +
			"content-on-error auth-no-challenge secure-protocol= https-only no-check-certificate " +
			"certificate= certificate-type= private-key= private-key-type= ca-certificate= " +
			"ca-directory= crl-file= pinnedpubkey= ciphers= no-hsts hsts-file ftp-user= " +
			"ftp-password= no-remove-listing no-glob no-passive-ftp preserve-permissions " +
			"retr-symlinks ftps-implicit ftps-resume-ssl ftps-clear-data-connection " +
			"ftps-fallback-to-ftp warc-file= warc-header= warc-max-size= warc-cdx warc-dedup= " +
			"no-warc-compression no-warc-digests no-warc-keep-log warc-tempdir= recursive level= " +
			"delete-after convert-links convert-file-only backups= backup-converted mirror " +
			"page-requisites strict-comments accept= reject= accept-regex= reject-regex= regex-type= " +
			"domains= exclude-domains= follow-ftp follow-tags= ignore-tags= span-hosts relative " +
			"include-directories= trust-server-names exclude-directories="}
)

// curl writes -o/--output, -D/--dump-header and -c/--cookie-jar, and
// sends the files it is told to: data given as @FILE (-d, --data-binary,
// --data-urlencode NAME@FILE, --json), form fields NAME=@FILE or
// NAME=<FILE (-F), uploads (-T), and reads its -K config and -b cookie
// file.
func curlEffects(c *Command) []Effect {
	l := curlOptions.Parse(c.Args)
	out := all(Write, false, append(append(l.Vals('o', "output"), l.Vals('D', "dump-header")...), l.Vals('c', "cookie-jar")...))
	var sent []Word
	for _, o := range l.Opts {
		if !o.HasVal {
			continue
		}
		v := o.Val.Value
		switch {
		case o.Is('d', "data"), o.Is(0, "data-binary"), o.Is(0, "data-ascii"), o.Is(0, "json"):
			if f, ok := strings.CutPrefix(v, "@"); ok {
				sent = append(sent, part(o.Val, f))
			}
		case o.Is(0, "data-urlencode"):
			if _, f, ok := strings.Cut(v, "@"); ok && !strings.ContainsAny(v[:strings.IndexByte(v, '@')], "=") {
				sent = append(sent, part(o.Val, f))
			}
		case o.Is('F', "form"):
			if _, f, ok := strings.Cut(v, "="); ok && (strings.HasPrefix(f, "@") || strings.HasPrefix(f, "<")) {
				f, _, _ = strings.Cut(f[1:], ";") // ;type=... follows the name
				sent = append(sent, part(o.Val, f))
			}
		case o.Is('T', "upload-file"), o.Is('K', "config"), o.Is('b', "cookie"):
			if o.Is('b', "cookie") && strings.Contains(v, "=") {
				continue // a cookie string, not a file
			}
			sent = append(sent, o.Val)
		}
	}
	return append(out, all(Read, false, sent)...)
}

// wget writes -O/--output-document, -o/--output-file and
// -a/--append-output, and sends --post-file and --body-file; -i reads its
// list of addresses, --load-cookies its cookies.
func wgetEffects(c *Command) []Effect {
	l := wgetOptions.Parse(c.Args)
	out := all(Write, false, append(append(l.Vals('O', "output-document"), l.Vals('o', "output-file")...), l.Vals('a', "append-output")...))
	for _, name := range []string{"post-file", "body-file", "load-cookies", "certificate", "private-key"} {
		out = append(out, all(Read, false, l.Vals(0, name))...)
	}
	return append(out, all(Read, false, l.Vals('i', "input-file"))...)
}

// sshOptions is ssh's option table (OpenSSH 9).
var sshOptions = &OptionTable{Short: "46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:P:p:Q:R:S:W:w:"}

// sshEffects: ssh reads what its words name as an unknown program's words
// are read (its configuration file, -F, included), but not the identity
// file of -i: ssh reads the key to sign with it and never shows it, and
// ssh -i ~/.ssh/deploy_key host (or the same as git's core.sshCommand) is
// everyday work. Its log file (-E) is written.
func sshEffects(c *Command) []Effect {
	l := sshOptions.Parse(c.Args)
	var words []Word
	for _, o := range l.Opts {
		if o.HasVal && !o.Is('i', "") && !o.Is('E', "") {
			words = append(words, o.Val)
		}
	}
	// The host and the remote command after it: read as words, as before
	// (ssh host cat .env reads the host's .env, a secret as much).
	return append(all(Write, false, l.Vals('E', "")), argumentReads(append(words, c.Args[l.Rest:]...))...)
}
