<?php
// dompdf as a producer (bench/corpus.py): php dompdf.php SOURCE.html OUT.pdf
// Debian's php-dompdf at its defaults, A4, with nothing fetched from outside the source's folder.
require '/usr/share/php/dompdf/autoload.php';
$dompdf = new Dompdf\Dompdf(['chroot' => dirname($argv[1]), 'isRemoteEnabled' => false]);
$dompdf->loadHtml(file_get_contents($argv[1]));
$dompdf->setBasePath(dirname($argv[1]));
$dompdf->setPaper('A4');
$dompdf->render();
file_put_contents($argv[2], $dompdf->output());
